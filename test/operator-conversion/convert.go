package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"

	apix "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/webhook/conversion"
)

// newWebhookHandler is the handler the operator's manager serves at /convert: ASO registers no custom
// converters, so controller-runtime converts through each kind's hub with the generated ConvertTo/ConvertFrom.
func newWebhookHandler(scheme *runtime.Scheme) http.Handler {
	return conversion.NewWebhookHandler(scheme, conversion.NewRegistry())
}

// errorLine is what convert writes in place of an object the operator refused to convert.
type errorLine struct {
	Error string `json:"error"`
	Index int    `json:"index"`
}

// convertStream converts every object read from in, one ConversionReview each so that one object's failure
// does not fail the others (the webhook fails a whole review on the first bad object), and writes the
// results as JSON lines in input order.
func convertStream(scheme *runtime.Scheme, toAPIVersion string, in io.Reader, out io.Writer) error {
	objects, err := readObjects(in)
	if err != nil {
		return err
	}
	handler := newWebhookHandler(scheme)
	writer := bufio.NewWriter(out)
	for index, object := range objects {
		line, err := convertOne(handler, toAPIVersion, object, index)
		if err != nil {
			line, _ = json.Marshal(errorLine{Error: err.Error(), Index: index})
		}
		writer.Write(line)
		writer.WriteByte('\n')
	}
	return writer.Flush()
}

// readObjects accepts a JSON array of objects or a stream of JSON objects (one a line, or any whitespace).
func readObjects(in io.Reader) ([]json.RawMessage, error) {
	data, err := io.ReadAll(in)
	if err != nil {
		return nil, fmt.Errorf("reading stdin: %w", err)
	}
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) > 0 && trimmed[0] == '[' {
		var objects []json.RawMessage
		if err := json.Unmarshal(trimmed, &objects); err != nil {
			return nil, fmt.Errorf("stdin is not a JSON array of objects: %w", err)
		}
		return objects, nil
	}
	var objects []json.RawMessage
	decoder := json.NewDecoder(bytes.NewReader(trimmed))
	for decoder.More() {
		var object json.RawMessage
		if err := decoder.Decode(&object); err != nil {
			return nil, fmt.Errorf("stdin object %d is not JSON: %w", len(objects), err)
		}
		objects = append(objects, object)
	}
	return objects, nil
}

// convertOne sends one object through the webhook handler in-process, exactly as the API server would.
// An object already at the target version is returned as it is: the API server never sends such an object
// to a webhook, and controller-runtime's handler refuses it ("conversion is not allowed between same type").
func convertOne(handler http.Handler, toAPIVersion string, object json.RawMessage, index int) ([]byte, error) {
	var typeMeta metav1.TypeMeta
	if err := json.Unmarshal(object, &typeMeta); err == nil && typeMeta.APIVersion == toAPIVersion {
		var compact bytes.Buffer
		err := json.Compact(&compact, object)
		return compact.Bytes(), err
	}
	review := apix.ConversionReview{
		TypeMeta: metav1.TypeMeta{APIVersion: "apiextensions.k8s.io/v1", Kind: "ConversionReview"},
		Request: &apix.ConversionRequest{
			UID:               types.UID("convert-" + strconv.Itoa(index)),
			DesiredAPIVersion: toAPIVersion,
			Objects:           []runtime.RawExtension{{Raw: object}},
		},
	}
	body, err := json.Marshal(review)
	if err != nil {
		return nil, err
	}
	recorder := httptest.NewRecorder()
	request := httptest.NewRequest(http.MethodPost, "/convert", bytes.NewReader(body))
	request.Header.Set("Content-Type", "application/json")
	handler.ServeHTTP(recorder, request)
	if recorder.Code != http.StatusOK {
		return nil, fmt.Errorf("webhook answered HTTP %d", recorder.Code)
	}
	var answer apix.ConversionReview
	if err := json.Unmarshal(recorder.Body.Bytes(), &answer); err != nil {
		return nil, fmt.Errorf("webhook answer is not a ConversionReview: %w", err)
	}
	response := answer.Response
	if response == nil {
		return nil, fmt.Errorf("webhook answer has no response")
	}
	if response.Result.Status != metav1.StatusSuccess {
		return nil, fmt.Errorf("%s", response.Result.Message)
	}
	if len(response.ConvertedObjects) != 1 {
		return nil, fmt.Errorf("webhook returned %d objects for 1", len(response.ConvertedObjects))
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, response.ConvertedObjects[0].Raw); err != nil {
		return nil, err
	}
	return compact.Bytes(), nil
}
