// Command operator-conversion converts Kubernetes objects with Azure Service Operator's own generated conversions,
// through controller-runtime's conversion webhook handler as the operator's webhook does, so kubectl-aso's tests
// can compare its conversions with the operator's and run the operator's webhook on a local control plane.
//
//	operator-conversion convert --to <apiVersion>            < objects (JSON array or JSON lines)
//	operator-conversion arm                                   < objects: the ARM body the operator would PUT for each
//	operator-conversion serve --addr 127.0.0.1:0 --cert-dir DIR
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/go-logr/logr/funcr"
	logf "sigs.k8s.io/controller-runtime/pkg/log"
)

// Exit codes: 2 for bad usage or unreadable input, 1 for anything else that stops the whole run.
const (
	exitFailure = 1
	exitUsage   = 2
)

func main() {
	// controller-runtime complains on stderr when no logger is set; its conversion errors go to stderr too.
	logf.SetLogger(funcr.New(func(prefix, args string) { fmt.Fprintln(os.Stderr, prefix, args) }, funcr.Options{}))
	if len(os.Args) < 2 {
		usage()
	}
	scheme, err := operatorScheme()
	if err != nil {
		fail(exitFailure, "building the operator's scheme: %v", err)
	}
	switch os.Args[1] {
	case "convert":
		flags := flag.NewFlagSet("convert", flag.ExitOnError)
		to := flags.String("to", "", "target apiVersion, e.g. storage.azure.com/v20250601")
		_ = flags.Parse(os.Args[2:])
		if *to == "" {
			usage()
		}
		if err := convertStream(scheme, *to, os.Stdin, os.Stdout); err != nil {
			fail(exitUsage, "%v", err)
		}
	case "arm":
		if err := armStream(scheme, os.Stdin, os.Stdout); err != nil {
			fail(exitUsage, "%v", err)
		}
	case "serve":
		flags := flag.NewFlagSet("serve", flag.ExitOnError)
		addr := flags.String("addr", "127.0.0.1:0", "loopback address to listen on")
		certDir := flags.String("cert-dir", "", "directory for the CA and serving certificate (created if absent)")
		_ = flags.Parse(os.Args[2:])
		if *certDir == "" {
			usage()
		}
		if err := serve(scheme, *addr, *certDir, os.Stdout); err != nil {
			fail(exitFailure, "%v", err)
		}
	default:
		usage()
	}
}

func usage() {
	fail(exitUsage, "usage: operator-conversion convert --to <apiVersion> | arm | serve --addr 127.0.0.1:PORT --cert-dir DIR")
}

func fail(code int, format string, args ...any) {
	fmt.Fprintf(os.Stderr, "operator-conversion: "+format+"\n", args...)
	os.Exit(code)
}
