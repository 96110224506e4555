package hub

import (
	"fmt"
	"slices"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

var englishPrinter = message.NewPrinter(language.English)

// fieldErrors flattens a validation error tree into one entry per failing
// field, sorted by path, without duplicates.
func fieldErrors(verr *jsonschema.ValidationError) []FieldError {
	fields := collectFieldErrors(verr, nil)
	slices.SortStableFunc(fields, func(a, b FieldError) int {
		if c := strings.Compare(a.Path, b.Path); c != 0 {
			return c
		}
		return strings.Compare(a.Message, b.Message)
	})
	return slices.Compact(fields)
}

// collectFieldErrors appends the leaf causes of e. The alternatives of anyOf
// and oneOf are summarised in one entry, since listing each alternative's
// complaints separately would read as if all of them applied.
func collectFieldErrors(e *jsonschema.ValidationError, out []FieldError) []FieldError {
	path := jsonPointer(e.InstanceLocation)
	switch k := e.ErrorKind.(type) {
	case *kind.AnyOf:
		return append(out, alternativesError(path, "anyOf", e.Causes))
	case *kind.OneOf:
		if len(k.Subschemas) == 0 {
			return append(out, alternativesError(path, "oneOf", e.Causes))
		}
	case *kind.Required:
		return appendPerProperty(out, path, k.Missing, "required property missing")
	case *kind.AdditionalProperties:
		return appendPerProperty(out, path, k.Properties, "property not allowed by the schema")
	}
	if len(e.Causes) == 0 {
		return append(out, FieldError{Path: path, Message: leafMessage(e.ErrorKind)})
	}
	for _, cause := range e.Causes {
		out = collectFieldErrors(cause, out)
	}
	return out
}

// appendPerProperty reports each named property of the object at path.
func appendPerProperty(out []FieldError, path string, props []string, msg string) []FieldError {
	for _, p := range props {
		out = append(out, FieldError{Path: path + "/" + escapePointerToken(p), Message: msg})
	}
	return out
}

// alternativesError summarises why a value matched none of the alternatives
// of anyOf or oneOf.
func alternativesError(path, keyword string, causes []*jsonschema.ValidationError) FieldError {
	parts := make([]string, 0, len(causes))
	for i, cause := range causes {
		var reasons []string
		for _, f := range collectFieldErrors(cause, nil) {
			reason := f.Message
			if f.Path != path {
				reason = displayPath(f.Path) + ": " + reason
			}
			reasons = append(reasons, reason)
		}
		parts = append(parts, fmt.Sprintf("(%d) %s", i+1, strings.Join(reasons, ", ")))
	}
	msg := fmt.Sprintf("matches none of the %s alternatives", keyword)
	if len(parts) > 0 {
		msg += ": " + strings.Join(parts, " ")
	}
	return FieldError{Path: path, Message: msg}
}

// leafMessage words one failed keyword for a person reading the error.
func leafMessage(k jsonschema.ErrorKind) string {
	switch k := k.(type) {
	case *kind.Type:
		return fmt.Sprintf("wrong type: got %s, want %s", k.Got, strings.Join(k.Want, " or "))
	case *kind.FalseSchema:
		return "no value is allowed here"
	case *kind.Not:
		return "matches a schema it must not match"
	case *kind.OneOf:
		return fmt.Sprintf("matches more than one oneOf alternative (%d and %d)", k.Subschemas[0]+1, k.Subschemas[1]+1)
	case *kind.MinLength:
		return fmt.Sprintf("too short: %d characters, at least %d required", k.Got, k.Want)
	case *kind.MaxLength:
		return fmt.Sprintf("too long: %d characters, at most %d allowed", k.Got, k.Want)
	case *kind.MinItems:
		return fmt.Sprintf("too few items: %d, at least %d required", k.Got, k.Want)
	case *kind.MaxItems:
		return fmt.Sprintf("too many items: %d, at most %d allowed", k.Got, k.Want)
	}
	return k.LocalizedString(englishPrinter)
}

// jsonPointer renders instance location tokens as an RFC 6901 pointer.
func jsonPointer(tokens []string) string {
	var b strings.Builder
	for _, tok := range tokens {
		b.WriteByte('/')
		b.WriteString(escapePointerToken(tok))
	}
	return b.String()
}

func escapePointerToken(tok string) string {
	tok = strings.ReplaceAll(tok, "~", "~0")
	return strings.ReplaceAll(tok, "/", "~1")
}

// displayPath is how InvalidArgumentsError shows the root pointer.
func displayPath(p string) string {
	if p == "" {
		return "(arguments)"
	}
	return p
}
