package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"reflect"

	"github.com/Azure/azure-service-operator/v2/pkg/genruntime"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// The values the arm mode resolves references to. kubectl-aso's differential test resolves the same references
// to the same values (test/differential/arm-resolution.ts), so both sides convert with identical details, as the
// issue asks: an ARM ID reference as given, a reference by name to a made-up ID naming its group, kind and name,
// a config map key and a secret key to text naming them (a secret's value is never read by kubectl-aso; the
// test only checks that the operator puts one where kubectl-aso says a secret goes).
const (
	resolvedIDPrefix  = "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/differential/providers/"
	secretValuePrefix = "secret:"
	configValuePrefix = "configmap:"
	secretMapValueKey = "secret-map"
	// The annotation the operator's reconciler records a name read from a config map in.
	azureNameFromConfigAnnotation = "serviceoperator.azure.com/azure-name-from-config"
)

// armLine is what arm writes for one object: the body the operator would PUT, with its ARM API version and type.
type armLine struct {
	APIVersion string          `json:"apiVersion"`
	Type       string          `json:"type"`
	Body       json.RawMessage `json:"body"`
}

// armStream turns every object read from in into the ARM body the operator's generic reconciler would send
// (ConvertToARMResourceImpl: the object as its original version, references, secrets and config maps resolved,
// the spec's generated ConvertToARM) and writes one JSON line per object, in input order. One object's failure
// is an error line and never stops the others.
func armStream(scheme *runtime.Scheme, in io.Reader, out io.Writer) error {
	objects, err := readObjects(in)
	if err != nil {
		return err
	}
	writer := bufio.NewWriter(out)
	for index, object := range objects {
		line, err := armOne(scheme, object)
		if err != nil {
			line, _ = json.Marshal(errorLine{Error: err.Error(), Index: index})
		}
		writer.Write(line)
		writer.WriteByte('\n')
	}
	return writer.Flush()
}

func armOne(scheme *runtime.Scheme, raw json.RawMessage) ([]byte, error) {
	var typeMeta metav1.TypeMeta
	if err := json.Unmarshal(raw, &typeMeta); err != nil {
		return nil, fmt.Errorf("not an object: %w", err)
	}
	gv, err := schema.ParseGroupVersion(typeMeta.APIVersion)
	if err != nil {
		return nil, err
	}
	typed, err := scheme.New(gv.WithKind(typeMeta.Kind))
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(raw, typed); err != nil {
		return nil, fmt.Errorf("the operator's type refuses the object: %w", err)
	}
	meta, ok := typed.(genruntime.ARMMetaObject)
	if !ok {
		return nil, fmt.Errorf("%s is not an ARM resource of the operator", gv.WithKind(typeMeta.Kind))
	}
	// The operator's defaulting webhook sets azureName to metadata.name when it is empty; the arm mode is
	// handed objects as they are applied, so it does the same before reading the name.
	defaultAzureName(meta)
	versioned, err := genruntime.ObjAsOriginalVersion(meta, scheme)
	if err != nil {
		return nil, err
	}
	transformer, ok := versioned.GetSpec().(genruntime.ARMTransformer)
	if !ok {
		return nil, fmt.Errorf("the spec of %T has no ConvertToARM", versioned)
	}
	armSpec, err := transformer.ConvertToARM(resolvedDetailsOf(versioned))
	if err != nil {
		return nil, err
	}
	spec, ok := armSpec.(genruntime.ARMResourceSpec)
	if !ok {
		return nil, fmt.Errorf("ConvertToARM of %T returned %T, no ARM resource spec", versioned, armSpec)
	}
	body, err := json.Marshal(spec)
	if err != nil {
		return nil, err
	}
	return json.Marshal(armLine{APIVersion: spec.GetAPIVersion(), Type: spec.GetType(), Body: body})
}

// defaultAzureName mirrors the generated defaulting webhooks (defaultAzureName in api/<group>/<version>/webhook):
// an empty azureName becomes metadata.name, unless the spec reads the name from a config map
// (azureNameFromConfig), whose value the reconciler records in an annotation that AzureName() reads. A kind
// without a settable azureName (a singleton) is left alone.
func defaultAzureName(obj genruntime.ARMMetaObject) {
	if obj.AzureName() != "" {
		return
	}
	spec := reflect.ValueOf(obj.GetSpec())
	if spec.Kind() != reflect.Pointer || spec.IsNil() {
		return
	}
	if field := spec.Elem().FieldByName("AzureNameFromConfig"); field.IsValid() && !field.IsNil() {
		fromConfig := field.Interface().(*genruntime.ConfigMapReference)
		if fromConfig.Name == "" || fromConfig.Key == "" {
			// The reconciler cannot read such a reference; the name stays empty.
			return
		}
		annotations := obj.GetAnnotations()
		if annotations == nil {
			annotations = map[string]string{}
		}
		annotations[azureNameFromConfigAnnotation] = configValuePrefix + fromConfig.Name + "/" + fromConfig.Key
		obj.SetAnnotations(annotations)
		return
	}
	field := spec.Elem().FieldByName("AzureName")
	if field.IsValid() && field.CanSet() && field.Kind() == reflect.String {
		field.SetString(obj.GetName())
	}
}

// resolvedDetailsOf finds every reference the object holds, as the operator's resolver does (a walk by exact
// type that skips zero values and does not descend into a match), and resolves each by the fixed rules above.
// The maps are keyed by the references themselves, un-namespaced, as the resolver keys them. A reference the
// operator's webhooks and CRD schema refuse (neither an ARM ID alone nor group, kind and name; a secret or
// config map reference without its name or key) is left unresolved, so ConvertToARM fails on it as the
// operator would never get that far.
func resolvedDetailsOf(obj genruntime.ARMMetaObject) genruntime.ConvertToARMResolvedDetails {
	references := map[genruntime.ResourceReference]string{}
	secrets := map[genruntime.SecretReference]string{}
	secretMaps := map[genruntime.SecretMapReference]map[string]string{}
	configMaps := map[genruntime.ConfigMapReference]string{}
	walkReferences(reflect.ValueOf(obj), func(found any) {
		switch ref := found.(type) {
		case genruntime.ResourceReference:
			if ref.IsDirectARMReference() {
				references[ref] = ref.ARMID
			} else if ref.IsKubernetesReference() {
				references[ref] = resolvedIDPrefix + ref.Group + "/" + ref.Kind + "/" + ref.Name
			}
		case genruntime.SecretReference:
			if ref.Name != "" && ref.Key != "" {
				secrets[ref] = secretValuePrefix + ref.Name + "/" + ref.Key
			}
		case genruntime.SecretMapReference:
			if ref.Name != "" {
				secretMaps[ref] = map[string]string{secretMapValueKey: secretValuePrefix + ref.Name}
			}
		case genruntime.ConfigMapReference:
			if ref.Name != "" && ref.Key != "" {
				configMaps[ref] = configValuePrefix + ref.Name + "/" + ref.Key
			}
		}
	})
	return genruntime.ConvertToARMResolvedDetails{
		Name:               obj.AzureName(),
		ResolvedReferences: genruntime.MakeResolved(references),
		ResolvedSecrets:    genruntime.MakeResolved(secrets),
		ResolvedSecretMaps: genruntime.MakeResolved(secretMaps),
		ResolvedConfigMaps: genruntime.MakeResolved(configMaps),
	}
}

var referenceTypes = map[reflect.Type]bool{
	reflect.TypeFor[genruntime.ResourceReference]():  true,
	reflect.TypeFor[genruntime.SecretReference]():    true,
	reflect.TypeFor[genruntime.SecretMapReference](): true,
	reflect.TypeFor[genruntime.ConfigMapReference](): true,
}

func walkReferences(value reflect.Value, found func(any)) {
	switch value.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !value.IsNil() {
			walkReferences(value.Elem(), found)
		}
	case reflect.Struct:
		if referenceTypes[value.Type()] {
			if !value.IsZero() {
				found(value.Interface())
			}
			return
		}
		for i := range value.NumField() {
			if value.Type().Field(i).IsExported() {
				walkReferences(value.Field(i), found)
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range value.Len() {
			walkReferences(value.Index(i), found)
		}
	case reflect.Map:
		iter := value.MapRange()
		for iter.Next() {
			walkReferences(iter.Value(), found)
		}
	}
}
