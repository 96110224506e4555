package cli

import (
	"errors"
	"strconv"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// flagError is the root command's flag-error function, which every
// subcommand inherits: a value of the wrong type is told in words (--k
// wants a whole number, not "abc") rather than as the parser's error, and
// every flag mistake is a usage error (exit 2).
func flagError(_ *cobra.Command, err error) error {
	var bad *pflag.InvalidValueError
	if !errors.As(err, &bad) {
		return asUsage(err)
	}
	name := "--" + bad.GetFlag().Name
	if errors.Is(err, strconv.ErrRange) {
		return usageError("%s %q is out of range", name, bad.GetValue())
	}
	want := flagWants(bad.GetFlag().Value.Type())
	if want == "" {
		return asUsage(err)
	}
	return usageError("%s wants %s, not %q", name, want, bad.GetValue())
}

// flagWants says in words what a flag of the given pflag type takes, or ""
// for a type whose own error already says it.
func flagWants(typ string) string {
	switch typ {
	case "int", "int8", "int16", "int32", "int64", "count":
		return "a whole number"
	case "uint", "uint8", "uint16", "uint32", "uint64":
		return "a whole number of 0 or more"
	case "float32", "float64":
		return "a number"
	case "duration":
		return "a duration such as 30s"
	case "bool":
		return "true or false"
	}
	return ""
}

// intsAtLeast refuses any of cmd's int flags named that holds less than
// least, as flagError words a value of the wrong type: "--servers wants a
// whole number of 1 or more, not -1".
func intsAtLeast(cmd *cobra.Command, least int, names ...string) error {
	for _, name := range names {
		v, err := cmd.Flags().GetInt(name)
		if err != nil {
			return err
		}
		if v < least {
			return usageError("--%s wants a whole number of %d or more, not %d", name, least, v)
		}
	}
	return nil
}

// intAtMost refuses cmd's int flag name above most.
func intAtMost(cmd *cobra.Command, most int, name string) error {
	v, err := cmd.Flags().GetInt(name)
	if err != nil {
		return err
	}
	if v > most {
		return usageError("--%s wants a whole number of at most %d, not %d", name, most, v)
	}
	return nil
}

// durationPositive refuses cmd's duration flag name at 0 or below.
func durationPositive(cmd *cobra.Command, name string) error {
	v, err := cmd.Flags().GetDuration(name)
	if err != nil {
		return err
	}
	if v <= 0 {
		return usageError("--%s wants a duration above 0 such as 30s, not %s", name, v)
	}
	return nil
}
