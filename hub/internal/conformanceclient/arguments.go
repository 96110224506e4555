package main

import "encoding/json"

// minimalArguments builds arguments holding only the schema's required
// properties, each a plain value of its type.
func minimalArguments(schema json.RawMessage) json.RawMessage {
	var s struct {
		Required   []string `json:"required"`
		Properties map[string]struct {
			Type any `json:"type"`
		} `json:"properties"`
	}
	if json.Unmarshal(schema, &s) != nil {
		return json.RawMessage(`{}`)
	}
	args := map[string]any{}
	for _, name := range s.Required {
		args[name] = sampleValue(s.Properties[name].Type)
	}
	raw, _ := json.Marshal(args)
	return raw
}

func sampleValue(typ any) any {
	if list, ok := typ.([]any); ok && len(list) > 0 {
		typ = list[0]
	}
	switch typ {
	case "number", "integer":
		return 1
	case "boolean":
		return true
	case "array":
		return []any{}
	case "object":
		return map[string]any{}
	case "null":
		return nil
	}
	return "test"
}
