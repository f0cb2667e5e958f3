// Command crd-maker makes the CustomResourceDefinitions of one API group of Azure Service Operator v2 from
// the operator's Go module, the way the operator's own build makes them, so that kubectl-aso does not
// depend on a copy of the operator's released CRDs.
//
// The operator's build (its Taskfile, `controller:generate-crds`) runs controller-gen with
// `crd:crdVersions=v1,allowDangerousTypes=true` over `v2/api/...`, and its kustomize config
// (`v2/config/crd/labels.yaml`) then adds two labels to every CRD. This program does the same for one
// `api/<group>/...` subtree at a time: type-checking all of the module's API packages at once takes
// tens of minutes, one group takes seconds to a few minutes.
//
// Usage:
//
//	crd-maker -module <dir of github.com/Azure/azure-service-operator/v2> -group <group> -version <v2.x.y> -out <dir>
//
// It writes one `<group>.azure.com_<plural>.yaml` per CRD into -out and prints nothing else on stdout.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"
	"sigs.k8s.io/controller-tools/pkg/crd"
	"sigs.k8s.io/controller-tools/pkg/genall"
	"sigs.k8s.io/controller-tools/pkg/loader"
)

// controllerToolsModule is the module whose version the operator stamps into each CRD's
// `controller-gen.kubebuilder.io/version` annotation.
const controllerToolsModule = "sigs.k8s.io/controller-tools"

// groupPattern keeps the group argument to one folder name under api/ (`resources`,
// `network.frontdoor`), so it can never reach outside the module.
var groupPattern = regexp.MustCompile(`^[a-z][a-z0-9]*(\.[a-z][a-z0-9]*)*$`)

func main() {
	moduleDir := flag.String("module", "", "folder of the Go module github.com/Azure/azure-service-operator/v2")
	group := flag.String("group", "", "API group folder under api/ (resources, network, network.frontdoor)")
	asoVersion := flag.String("version", "", "operator version for the app.kubernetes.io/version label (v2.20.0)")
	outDir := flag.String("out", "", "folder to write one YAML per CRD into")
	flag.Parse()
	if *moduleDir == "" || *group == "" || *asoVersion == "" || *outDir == "" {
		flag.Usage()
		os.Exit(2)
	}
	if err := run(*moduleDir, *group, *asoVersion, *outDir); err != nil {
		fmt.Fprintf(os.Stderr, "crd-maker: %v\n", err)
		os.Exit(1)
	}
}

func run(moduleDir, group, asoVersion, outDir string) error {
	if !groupPattern.MatchString(group) {
		return fmt.Errorf("group %q is not a folder name under api/", group)
	}
	apiDir := filepath.Join(moduleDir, "api")
	if info, err := os.Stat(filepath.Join(apiDir, group)); err != nil || !info.IsDir() {
		return fmt.Errorf("no API group %q in %s", group, apiDir)
	}
	toolsVersion, err := controllerToolsVersion()
	if err != nil {
		return err
	}

	// The operator's own flags: v1 CRDs only, and float fields allowed (ARM APIs have them).
	allowDangerousTypes := true
	generator := crd.Generator{AllowDangerousTypes: &allowDangerousTypes, CRDVersions: []string{"v1"}}
	// The module cache is read-only and complete: never let `go list` edit go.mod or reach a workspace.
	config := &packages.Config{Dir: apiDir, Env: append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=readonly")}
	var asGenerator genall.Generator = generator
	rt, err := genall.Generators{&asGenerator}.ForRootsWithConfig(config, "./"+group+"/...")
	if err != nil {
		return fmt.Errorf("loading api/%s: %w", group, err)
	}
	captured := &memoryOutput{files: map[string]*bytes.Buffer{}}
	rt.OutputRules = genall.OutputRules{Default: captured}
	if rt.Run() {
		return fmt.Errorf("controller-gen reported errors for api/%s", group)
	}
	if len(captured.files) == 0 {
		return fmt.Errorf("api/%s holds no CRD types", group)
	}

	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return err
	}
	names := make([]string, 0, len(captured.files))
	for name := range captured.files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		content, err := asOperatorShips(captured.files[name].Bytes(), asoVersion, toolsVersion)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		if err := os.WriteFile(filepath.Join(outDir, name), content, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// controllerToolsVersion is the version of controller-tools compiled into this binary. controller-gen
// stamps its own main module's version into each CRD; used as a library that would be this program's
// `(devel)`, so the stamp is set from the dependency instead.
func controllerToolsVersion() (string, error) {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "", errors.New("no build information in this binary: build it with module support")
	}
	for _, dep := range info.Deps {
		if dep.Path == controllerToolsModule {
			return dep.Version, nil
		}
	}
	return "", fmt.Errorf("%s is not a dependency of this binary", controllerToolsModule)
}

// asOperatorShips applies what the operator's build does to controller-gen's output before it ships a
// CRD: the labels of its kustomize LabelTransformer (`config/crd/labels.yaml`, `${VERSION}` being the
// release tag). Edited as text, so that everything else stays byte for byte what controller-gen wrote.
// `spec.conversion` is not added: the operator fills it in when it installs its CRDs.
func asOperatorShips(generated []byte, asoVersion, toolsVersion string) ([]byte, error) {
	text := string(generated)
	const metadata = "\nmetadata:\n"
	if strings.Count(text, metadata) != 1 || strings.Contains(text, metadata+"  labels:") {
		return nil, errors.New("not one CRD with unlabelled metadata, as controller-gen writes it")
	}
	labels := "  labels:\n    app.kubernetes.io/name: azure-service-operator\n    app.kubernetes.io/version: " + asoVersion + "\n"
	text = strings.Replace(text, metadata, metadata+labels, 1)
	stamp := "controller-gen.kubebuilder.io/version: "
	unstamped := regexp.MustCompile(regexp.QuoteMeta(stamp) + `\S+`)
	if len(unstamped.FindAllStringIndex(text, -1)) != 1 {
		return nil, errors.New("not one controller-gen version annotation")
	}
	text = unstamped.ReplaceAllLiteralString(text, stamp+toolsVersion)
	return []byte(text), nil
}

// memoryOutput keeps controller-gen's artifacts in memory, so that they are written once, already
// post-processed, and a failed run leaves no half-made folder behind.
type memoryOutput struct {
	files map[string]*bytes.Buffer
}

func (o *memoryOutput) Open(_ *loader.Package, itemPath string) (io.WriteCloser, error) {
	if filepath.Base(itemPath) != itemPath {
		return nil, fmt.Errorf("unexpected artifact path %q", itemPath)
	}
	buffer := &bytes.Buffer{}
	o.files[itemPath] = buffer
	return nopCloser{buffer}, nil
}

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }
