package hub

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// inputSchemaURL is where a tool's input schema is registered for
// compilation. The .invalid domain can never resolve, and the loader refuses
// every fetch anyway.
const inputSchemaURL = "https://toolhub.invalid/input-schema.json"

// errRemoteRef is what the loader answers for any $ref outside the schema.
var errRemoteRef = errors.New("schemas may not reference external documents")

// noFetchLoader refuses every URL: tool schemas are untrusted and must not
// make the hub read files or reach the network. The standard meta-schemas
// are built into the validator library and never reach the loader.
type noFetchLoader struct{}

func (noFetchLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("load %s: %w", url, errRemoteRef)
}

// argValidator checks call arguments against one input schema, compiled on
// first use. Tools that share a raw schema across rebuilds share it.
type argValidator struct {
	schema     json.RawMessage
	once       sync.Once
	compiled   *jsonschema.Schema
	compileErr error
}

func newArgValidator(schema json.RawMessage) *argValidator {
	return &argValidator{schema: schema}
}

// get compiles the schema once. A schema that does not compile is reported
// in the log on that first attempt only, naming tool.
func (v *argValidator) get(tool string) (*jsonschema.Schema, error) {
	v.once.Do(func() {
		v.compiled, v.compileErr = compileSchema(v.schema)
		if v.compileErr != nil {
			slog.Warn("tool input schema does not compile; its calls are forwarded unvalidated",
				"tool", tool, "err", v.compileErr)
		}
	})
	return v.compiled, v.compileErr
}

// compileSchema compiles an input schema; $schema picks the draft (4 to
// 2020-12) and 2020-12 applies when it is absent.
func compileSchema(schema json.RawMessage) (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schema))
	if err != nil {
		return nil, fmt.Errorf("parse input schema: %w", err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.UseLoader(noFetchLoader{})
	if err := c.AddResource(inputSchemaURL, doc); err != nil {
		return nil, fmt.Errorf("add input schema: %w", err)
	}
	compiled, err := c.Compile(inputSchemaURL)
	if err != nil {
		return nil, fmt.Errorf("compile input schema: %w", err)
	}
	return compiled, nil
}

// ValidateArguments checks a call's arguments against the tool's input
// schema. It returns nil, or an *InvalidArgumentsError listing every failing
// field as a JSON pointer with a message. Empty or null arguments count as
// {}.
//
// A tool without an input schema accepts anything. A schema that does not
// compile (malformed, an unsupported regexp, a $ref to another document)
// does not block calls: they are forwarded unvalidated and the server judges
// them, and the problem is logged once per schema. Refusing every call of a
// tool because of its own faulty schema would make it unusable for no gain.
func (t *Tool) ValidateArguments(args json.RawMessage) error {
	if t.validator == nil {
		return nil
	}
	schema, err := t.validator.get(t.Name)
	if err != nil {
		return nil
	}
	instance, err := decodeArguments(args)
	if err != nil {
		return &InvalidArgumentsError{Tool: t.Name, Fields: []FieldError{{Message: err.Error()}}}
	}
	err = schema.Validate(instance)
	if err == nil {
		return nil
	}
	var verr *jsonschema.ValidationError
	if !errors.As(err, &verr) {
		return &InvalidArgumentsError{Tool: t.Name, Fields: []FieldError{{Message: err.Error()}}}
	}
	return &InvalidArgumentsError{Tool: t.Name, Fields: fieldErrors(verr)}
}

// decodeArguments parses call arguments keeping numbers exact; empty or null
// arguments become an empty object.
func decodeArguments(args json.RawMessage) (any, error) {
	trimmed := bytes.TrimSpace(args)
	if len(trimmed) == 0 || bytes.Equal(trimmed, []byte("null")) {
		return map[string]any{}, nil
	}
	instance, err := jsonschema.UnmarshalJSON(bytes.NewReader(trimmed))
	if err != nil {
		return nil, fmt.Errorf("arguments are not valid JSON: %w", err)
	}
	return instance, nil
}
