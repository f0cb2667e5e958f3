package main

import (
	"errors"

	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
)

// groupSchemes registers the operator's API packages of the groups this binary was built for: every package of
// the group that declares AddToScheme (each version the operator serves, API and storage, and the hand-written
// v1 data-plane kinds of sql and dbforpostgresql). build.sh generates the list per group from the operator's
// module source and hands it to `go build` as scheme_groups.go, an overlay file: a binary for every group at
// once does not build in reasonable time, and a list kept by hand falls behind the operator.
var groupSchemes []func(*runtime.Scheme) error

// operatorScheme holds what the operator's manager scheme holds for the built groups, registered as the operator's
// CreateScheme in v2/internal/controllers/controller_resources.go does, so the conversion webhook handler finds
// the same hubs and spokes.
func operatorScheme() (*runtime.Scheme, error) {
	if len(groupSchemes) == 0 {
		return nil, errors.New("built without any API group: build it with test/operator-conversion/build.sh GROUP")
	}
	scheme := runtime.NewScheme()
	if err := clientgoscheme.AddToScheme(scheme); err != nil {
		return nil, err
	}
	for _, add := range groupSchemes {
		if err := add(scheme); err != nil {
			return nil, err
		}
	}
	return scheme, nil
}
