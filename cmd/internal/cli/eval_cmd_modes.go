package cli

import (
	"strings"

	"github.com/spf13/pflag"
)

// Flags that only one kind of evaluation reads; the other refuses them
// rather than run without what was asked.
var (
	liveOnlyFlags   = []string{"mode", "judge", "grade", "tolerance", "repeat", "journal"}
	replayOnlyFlags = []string{"cost-weights", "latency-weight", "k", "l2", "seed", "split", "drop-incomplete"}
)

// checkModeFlags refuses a flag set on the command line that the chosen
// evaluation (replay or live) does not read.
func checkModeFlags(fl *pflag.FlagSet, replay bool) error {
	other, kind, want := replayOnlyFlags, "live", "--replay DIR"
	if replay {
		other, kind, want = liveOnlyFlags, "replay", "--tasks FILE"
	}
	var set []string
	for _, name := range other {
		if fl.Changed(name) {
			set = append(set, "--"+name)
		}
	}
	if len(set) == 0 {
		return nil
	}
	return usageError("%s: not read by a %s evaluation (it belongs to %s)", strings.Join(set, ", "), kind, want)
}
