// Command gitops-evaluator runs kubectl-aso's generated health rules the way the GitOps tools run them:
// Lua health scripts in gopher-lua as Argo CD does (the object as the global `obj`, the returned table's
// status and message), and Flux healthCheckExprs in cel-go with Flux's environment and evaluation order.
// It reads one JSON request on stdin and writes one JSON answer on stdout.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/ext"
	lua "github.com/yuin/gopher-lua"
	"github.com/yuin/gopher-lua/parse"
)

type celRules struct {
	Current    string `json:"current"`
	InProgress string `json:"inProgress"`
	Failed     string `json:"failed"`
}

type rule struct {
	ID  string   `json:"id"`
	Lua string   `json:"lua"`
	CEL celRules `json:"cel"`
}

type request struct {
	Rules   []rule            `json:"rules"`
	Objects []json.RawMessage `json:"objects"`
}

type verdict struct {
	ArgoCD        string `json:"argocd"`
	ArgoCDMessage string `json:"argocdMessage"`
	ArgoCDError   string `json:"argocdError,omitempty"`
	Flux          string `json:"flux"`
	FluxError     string `json:"fluxError,omitempty"`
}

type ruleAnswer struct {
	ID        string    `json:"id"`
	LuaError  string    `json:"luaError,omitempty"`
	CELErrors []string  `json:"celErrors,omitempty"`
	Verdicts  []verdict `json:"verdicts"`
}

func main() {
	var req request
	if err := json.NewDecoder(os.Stdin).Decode(&req); err != nil {
		fmt.Fprintln(os.Stderr, "gitops-evaluator: bad request:", err)
		os.Exit(2)
	}
	objects := make([]map[string]any, len(req.Objects))
	for i, raw := range req.Objects {
		objects[i] = unstructuredOf(raw)
	}
	answers := make([]ruleAnswer, 0, len(req.Rules))
	for _, r := range req.Rules {
		answers = append(answers, evaluate(r, objects))
	}
	out := json.NewEncoder(os.Stdout)
	if err := out.Encode(map[string]any{"rules": answers}); err != nil {
		os.Exit(1)
	}
}

// unstructuredOf decodes an object as Kubernetes' unstructured decoding does: integers as int64, other
// numbers as float64, so that CEL sees the same types Flux gives it.
func unstructuredOf(raw json.RawMessage) map[string]any {
	decoder := json.NewDecoder(bytes.NewReader(raw))
	decoder.UseNumber()
	var value any
	if err := decoder.Decode(&value); err != nil {
		fmt.Fprintln(os.Stderr, "gitops-evaluator: bad object:", err)
		os.Exit(2)
	}
	object, _ := numbersOf(value).(map[string]any)
	return object
}

func numbersOf(value any) any {
	switch v := value.(type) {
	case json.Number:
		if i, err := v.Int64(); err == nil {
			return i
		}
		f, _ := v.Float64()
		return f
	case map[string]any:
		for key, item := range v {
			v[key] = numbersOf(item)
		}
		return v
	case []any:
		for i, item := range v {
			v[i] = numbersOf(item)
		}
		return v
	}
	return value
}

func evaluate(r rule, objects []map[string]any) ruleAnswer {
	answer := ruleAnswer{ID: r.ID, Verdicts: []verdict{}}
	if _, err := parse.Parse(bytes.NewReader([]byte(r.Lua)), r.ID); err != nil {
		answer.LuaError = err.Error()
	}
	programs, errs := celPrograms(r.CEL)
	answer.CELErrors = errs
	if answer.LuaError != "" || len(errs) > 0 {
		return answer
	}
	for _, object := range objects {
		var v verdict
		v.ArgoCD, v.ArgoCDMessage, v.ArgoCDError = runLua(r.Lua, object)
		v.Flux, v.FluxError = runFlux(programs, object)
		answer.Verdicts = append(answer.Verdicts, v)
	}
	return answer
}

// --- Argo CD ---

// runLua runs a health script as Argo CD's util/lua does: a fresh state with the base, table, string and
// math libraries, the object decoded into Lua tables as the global `obj`, a time limit, and the returned
// table's `status` and `message` read back.
func runLua(script string, object map[string]any) (string, string, string) {
	l := lua.NewState(lua.Options{SkipOpenLibs: true})
	defer l.Close()
	for _, lib := range []struct {
		name string
		open lua.LGFunction
	}{
		{lua.LoadLibName, lua.OpenPackage},
		{lua.BaseLibName, lua.OpenBase},
		{lua.TabLibName, lua.OpenTable},
		{lua.StringLibName, lua.OpenString},
		{lua.MathLibName, lua.OpenMath},
	} {
		l.Push(l.NewFunction(lib.open))
		l.Push(lua.LString(lib.name))
		l.Call(1, 0)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	l.SetContext(ctx)
	l.SetGlobal("obj", luaValueOf(l, object))
	if err := l.DoString(script); err != nil {
		return "", "", err.Error()
	}
	returned := l.Get(-1)
	table, ok := returned.(*lua.LTable)
	if !ok {
		return "", "", fmt.Sprintf("the script returned %s, not a table", returned.Type())
	}
	status, _ := table.RawGetString("status").(lua.LString)
	message, _ := table.RawGetString("message").(lua.LString)
	switch string(status) {
	case "Healthy", "Progressing", "Degraded", "Suspended", "Missing", "Unknown":
		return string(status), string(message), ""
	}
	return "", string(message), fmt.Sprintf("invalid health status %q", string(status))
}

// luaValueOf converts as Argo CD's decodeValue does: maps and lists both become tables (a null list item is
// dropped by Append), numbers become Lua numbers.
func luaValueOf(l *lua.LState, value any) lua.LValue {
	switch v := value.(type) {
	case float64:
		return lua.LNumber(v)
	case int64:
		return lua.LNumber(v)
	case string:
		return lua.LString(v)
	case bool:
		return lua.LBool(v)
	case []any:
		table := l.CreateTable(len(v), 0)
		for _, item := range v {
			table.Append(luaValueOf(l, item))
		}
		return table
	case map[string]any:
		table := l.CreateTable(0, len(v))
		for key, item := range v {
			table.RawSetString(key, luaValueOf(l, item))
		}
		return table
	}
	return lua.LNil
}

// --- Flux ---

type celProgram struct {
	name    string
	program cel.Program
}

// celPrograms parses each expression in Flux's CEL environment (parsed, not type-checked, as Flux does) and
// also type-checks it with the top-level fields declared dynamic, so that a mistake a parser lets through
// is still caught here.
func celPrograms(rules celRules) ([]celProgram, []string) {
	options := []cel.EnvOption{
		cel.HomogeneousAggregateLiterals(),
		cel.EagerlyValidateDeclarations(true),
		cel.DefaultUTCTimeZone(true),
		cel.CrossTypeNumericComparisons(true),
		cel.OptionalTypes(),
		ext.Strings(),
		ext.Sets(),
		ext.Encoders(),
	}
	env, err := cel.NewEnv(options...)
	if err != nil {
		return nil, []string{err.Error()}
	}
	checking, err := env.Extend(
		cel.Variable("apiVersion", cel.DynType),
		cel.Variable("kind", cel.DynType),
		cel.Variable("metadata", cel.DynType),
		cel.Variable("spec", cel.DynType),
		cel.Variable("status", cel.DynType),
	)
	if err != nil {
		return nil, []string{err.Error()}
	}
	var programs []celProgram
	var errs []string
	// Flux's order: inProgress, failed, current.
	for _, e := range []struct{ name, expr string }{
		{"inProgress", rules.InProgress},
		{"failed", rules.Failed},
		{"current", rules.Current},
	} {
		if e.expr == "" {
			if e.name == "current" {
				errs = append(errs, "current: missing (Flux requires it)")
			}
			continue
		}
		ast, issues := env.Parse(e.expr)
		if issues != nil && issues.Err() != nil {
			errs = append(errs, e.name+": "+issues.Err().Error())
			continue
		}
		if _, issues := checking.Compile(e.expr); issues != nil && issues.Err() != nil {
			errs = append(errs, e.name+" (type check): "+issues.Err().Error())
			continue
		}
		program, err := env.Program(ast, cel.EvalOptions(cel.OptOptimize), cel.InterruptCheckFrequency(100))
		if err != nil {
			errs = append(errs, e.name+": "+err.Error())
			continue
		}
		programs = append(programs, celProgram{e.name, program})
	}
	return programs, errs
}

// runFlux decides as Flux's StatusEvaluator does: a top-level status.observedGeneration that differs from
// metadata.generation is in progress; then the first expression that holds, in order; else in progress.
func runFlux(programs []celProgram, object map[string]any) (string, string) {
	if status, ok := object["status"].(map[string]any); ok {
		if observed, ok := status["observedGeneration"].(int64); ok {
			if metadata, ok := object["metadata"].(map[string]any); ok {
				if generation, ok := metadata["generation"].(int64); ok && generation != observed {
					return "inProgress", ""
				}
			}
		}
	}
	for _, p := range programs {
		value, _, err := p.program.Eval(object)
		if err != nil {
			return "", p.name + ": " + err.Error()
		}
		result, ok := value.(types.Bool)
		if !ok {
			return "", p.name + ": not a boolean"
		}
		if bool(result) {
			return p.name, ""
		}
	}
	return "inProgress", ""
}
