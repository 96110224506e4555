package policies

import (
	"bytes"
	"encoding/json"
)

// Choices are a question's answer options when a record keeps them apart
// from the question, as text. In JSON they are a string, taken as it is,
// or any other value (a list of options, say), kept as its compact JSON;
// null is none.
type Choices string

// UnmarshalJSON reads choices in any of the forms Choices takes.
func (c *Choices) UnmarshalJSON(data []byte) error {
	*c = Choices(choiceText(data))
	return nil
}

// choiceText is data as Choices: a JSON string as it is, null or nothing
// as none, any other valid JSON as its compact form.
func choiceText(data []byte) string {
	var s string
	if json.Unmarshal(data, &s) == nil {
		return s
	}
	var buf bytes.Buffer
	if len(data) == 0 || json.Compact(&buf, data) != nil || buf.String() == "null" {
		return ""
	}
	return buf.String()
}

// WithChoices is a question as a router reads it when its answer options
// are kept apart from it: the question, then the options on a line of
// their own. A model's outcome depends on the options it was shown as
// well as on the question: the same stem is another task with its options
// in another form.
func WithChoices(question string, choices Choices) string {
	if choices == "" {
		return question
	}
	return question + "\n" + string(choices)
}
