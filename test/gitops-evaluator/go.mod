// Module gitops-evaluator runs kubectl-aso's generated Argo CD and Flux health rules in the interpreters those
// tools use (gopher-lua, cel-go) for kubectl-aso's tests. It is never part of the npm package; the binary
// goes to a cache outside the repository.
module kubectl-aso/test/gitops-evaluator

go 1.25.0

require (
	github.com/google/cel-go v0.28.1
	github.com/yuin/gopher-lua v1.1.1
)

require (
	cel.dev/expr v0.25.1 // indirect
	github.com/antlr4-go/antlr/v4 v4.13.1 // indirect
	go.yaml.in/yaml/v3 v3.0.4 // indirect
	golang.org/x/exp v0.0.0-20240823005443-9b4947da3948 // indirect
	golang.org/x/text v0.22.0 // indirect
	google.golang.org/genproto/googleapis/api v0.0.0-20240826202546-f6391c0de4c7 // indirect
	google.golang.org/genproto/googleapis/rpc v0.0.0-20240826202546-f6391c0de4c7 // indirect
	google.golang.org/protobuf v1.36.10 // indirect
)
