package hub

import (
	"bytes"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
)

// schemaTool is a catalog tool with the given input schema.
func schemaTool(t testing.TB, schema string) *Tool {
	t.Helper()
	c := NewCatalog(nil)
	c.SetServer(ServerMeta{Name: "s"}, []RawTool{{Name: "t", InputSchema: json.RawMessage(schema)}})
	tool, ok := c.Snapshot().Lookup("s__t")
	if !ok {
		t.Fatal("tool missing from catalog")
	}
	return tool
}

const personSchema = `{
	"type": "object",
	"properties": {
		"name": {"type": "string", "minLength": 1},
		"age": {"type": "integer", "minimum": 0},
		"role": {"enum": ["admin", "user"]},
		"address": {
			"type": "object",
			"properties": {"city": {"type": "string"}, "zip": {"type": "string", "pattern": "^[0-9]{5}$"}},
			"required": ["city"]
		},
		"tags": {"type": "array", "items": {"type": "string"}}
	},
	"required": ["name"],
	"additionalProperties": false
}`

const refSchema = `{
	"$defs": {"point": {"type": "object", "properties": {"x": {"type": "number"}}, "required": ["x"]}},
	"type": "object",
	"properties": {"from": {"$ref": "#/$defs/point"}, "to": {"$ref": "#/$defs/point"}}
}`

func TestValidateArguments(t *testing.T) {
	cases := []struct {
		name   string
		schema string
		args   string
		want   []FieldError // nil: valid
	}{
		{"valid", personSchema, `{"name":"Ada","age":36,"role":"admin"}`, nil},
		{"missing required", personSchema, `{"age":3}`,
			[]FieldError{{"/name", "required property missing"}}},
		{"wrong type", personSchema, `{"name":"Ada","age":"old"}`,
			[]FieldError{{"/age", "wrong type: got string, want integer"}}},
		{"integer given as float", personSchema, `{"name":"Ada","age":1.5}`,
			[]FieldError{{"/age", "wrong type: got number, want integer"}}},
		{"nested path", personSchema, `{"name":"Ada","address":{"zip":"123"}}`,
			[]FieldError{{"/address/city", "required property missing"},
				{"/address/zip", `'123' does not match pattern '^[0-9]{5}$'`}}},
		{"array item", personSchema, `{"name":"Ada","tags":["a",2]}`,
			[]FieldError{{"/tags/1", "wrong type: got number, want string"}}},
		{"enum", personSchema, `{"name":"Ada","role":"root"}`,
			[]FieldError{{"/role", `value must be one of 'admin', 'user'`}}},
		{"additional property", personSchema, `{"name":"Ada","a/b":1}`,
			[]FieldError{{"/a~1b", "property not allowed by the schema"}}},
		{"every failure listed", personSchema, `{"age":-1,"name":""}`,
			[]FieldError{{"/age", "minimum: got -1, want 0"},
				{"/name", "too short: 0 characters, at least 1 required"}}},
		{"args null", personSchema, `null`, []FieldError{{"/name", "required property missing"}}},
		{"args empty", `{"type":"object"}`, ``, nil},
		{"args not an object", personSchema, `[1]`,
			[]FieldError{{"", "wrong type: got array, want object"}}},
		{"args not JSON", personSchema, `{"name":`, nil}, // checked below
		{"$defs and $ref valid", refSchema, `{"from":{"x":1},"to":{"x":2.5}}`, nil},
		{"$defs and $ref invalid", refSchema, `{"from":{"x":"1"},"to":{}}`,
			[]FieldError{{"/from/x", "wrong type: got string, want number"},
				{"/to/x", "required property missing"}}},
		{"anyOf", `{"properties":{"v":{"anyOf":[{"type":"string"},{"type":"null"}]}}}`, `{"v":1}`,
			[]FieldError{{"/v", "matches none of the anyOf alternatives: " +
				"(1) wrong type: got number, want string (2) wrong type: got number, want null"}}},
		{"draft-04 schema", `{"$schema":"http://json-schema.org/draft-04/schema#",
			"properties":{"n":{"type":"number","maximum":5,"exclusiveMaximum":true}}}`, `{"n":5}`,
			[]FieldError{{"/n", "exclusiveMaximum: got 5, want 5"}}},
		{"false schema", `false`, `{}`, []FieldError{{"", "no value is allowed here"}}},
		{"invalid schema allows the call", `{"type":"objekt"}`, `{"anything":1}`, nil},
		{"schema that is not JSON allows the call", `{"type":`, `{}`, nil},
		{"unsupported regexp allows the call", `{"properties":{"a":{"pattern":"(?<=x)y"}}}`, `{"a":"y"}`, nil},
	}
	quietLogs(t) // the invalid schemas are logged
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tool := schemaTool(t, tc.schema)
			err := tool.ValidateArguments(json.RawMessage(tc.args))
			if tc.name == "args not JSON" {
				checkInvalidJSON(t, err)
				return
			}
			var invalid *InvalidArgumentsError
			if tc.want == nil {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				return
			}
			if !errors.As(err, &invalid) {
				t.Fatalf("got %v, want an InvalidArgumentsError", err)
			}
			if invalid.Tool != "s__t" {
				t.Errorf("Tool = %q", invalid.Tool)
			}
			if !slices.Equal(invalid.Fields, tc.want) {
				t.Errorf("fields:\n got %q\nwant %q", invalid.Fields, tc.want)
			}
		})
	}
}

func checkInvalidJSON(t *testing.T, err error) {
	t.Helper()
	var invalid *InvalidArgumentsError
	if !errors.As(err, &invalid) || len(invalid.Fields) != 1 || invalid.Fields[0].Path != "" {
		t.Fatalf("got %v, want one root field error", err)
	}
}

func TestValidateErrorMessage(t *testing.T) {
	err := schemaTool(t, personSchema).ValidateArguments(json.RawMessage(`{"age":"x"}`))
	want := "invalid arguments for s__t: /age: wrong type: got string, want integer; /name: required property missing"
	if err == nil || err.Error() != want {
		t.Errorf("got %q\nwant %q", err, want)
	}
}

func TestValidateWithoutSchemaAcceptsAnything(t *testing.T) {
	c := NewCatalog(nil)
	c.SetServer(ServerMeta{Name: "s"}, []RawTool{{Name: "t"}})
	tool, _ := c.Snapshot().Lookup("s__t")
	if err := tool.ValidateArguments(json.RawMessage(`{"x":[1,2]}`)); err != nil {
		t.Errorf("got %v", err)
	}
}

func TestValidateNeverFetchesReferences(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Write([]byte(`{"type":"string"}`))
	}))
	defer srv.Close()
	file := filepath.Join(t.TempDir(), "strict.json")
	if err := os.WriteFile(file, []byte(`{"type":"string"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	refs := map[string]string{"http": srv.URL + "/schema.json", "file": "file://" + file}
	for scheme, ref := range refs {
		t.Run(scheme, func(t *testing.T) {
			schema := `{"properties":{"a":{"$ref":"` + ref + `"}}}`
			// Were the reference loaded, a number would fail "type": "string".
			if err := schemaTool(t, schema).ValidateArguments(json.RawMessage(`{"a":1}`)); err != nil {
				t.Errorf("got %v; the reference was followed", err)
			}
		})
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("the schema server was asked %d times", n)
	}
}

// quietLogs sends the default logger to buf (or nowhere) until the test ends.
func quietLogs(tb testing.TB) *bytes.Buffer {
	var buf bytes.Buffer
	prev := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(&buf, nil)))
	tb.Cleanup(func() { slog.SetDefault(prev) })
	return &buf
}

func TestValidateLogsBrokenSchemaOnce(t *testing.T) {
	logs := quietLogs(t)
	tool := schemaTool(t, `{"type":"objekt"}`)
	for range 3 {
		if err := tool.ValidateArguments(json.RawMessage(`{}`)); err != nil {
			t.Fatalf("got %v", err)
		}
	}
	if n := strings.Count(logs.String(), "does not compile"); n != 1 {
		t.Errorf("logged %d times, want once:\n%s", n, logs)
	}
	if !strings.Contains(logs.String(), "tool=s__t") {
		t.Errorf("log does not name the tool:\n%s", logs)
	}
}

func FuzzValidateArguments(f *testing.F) {
	f.Add([]byte(personSchema), []byte(`{"name":"Ada","age":"x"}`))
	f.Add([]byte(refSchema), []byte(`{"from":{"x":"1"}}`))
	f.Add([]byte(`{"oneOf":[{"type":"string"},{"minLength":1}]}`), []byte(`"ab"`))
	f.Add([]byte(`{"$ref":"#/$defs/a","$defs":{"a":{"$ref":"#/$defs/a"}}}`), []byte(`{}`))
	f.Add([]byte(`true`), []byte(`null`))
	f.Add([]byte(`{"type":`), []byte(`{"a":`))
	quietLogs(f)
	f.Fuzz(func(t *testing.T, schema, args []byte) {
		tool := &Tool{Name: "s__t", validator: newArgValidator(schema)}
		err := tool.ValidateArguments(args)
		var invalid *InvalidArgumentsError
		if err != nil && (!errors.As(err, &invalid) || len(invalid.Fields) == 0) {
			t.Fatalf("error without fields: %v", err)
		}
	})
}
