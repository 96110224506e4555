package eval

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// Number is a parsed numeric answer: its value and unit ("" for none, "%"
// for a percentage, otherwise the trailing word such as "km").
type Number struct {
	Value float64
	Unit  string
}

// numberPattern matches one number with optional sign, currency, thousands
// separators, decimals, exponent, and a trailing percent sign or unit word.
// Both patterns compile on first use: their Unicode classes cost every
// toolhub process a hundred kilobytes at start-up otherwise.
var numberPattern = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^([-+−]?)\s*[$€£¥]?\s*([-+−]?)` +
		`(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d*)?|\.\d+)(?:[eE]([-+]?\d+))?` +
		`(?:\s*/\s*(\d+))?\s*(%|[\p{L}°][\p{L}\p{N}°/²³]*(?:\s+[\p{L}][\p{L}\p{N}°/²³]*)?)?$`)
})

// ParseNumber reads text as one number: "1,000", "$3.50", "50%", "3.0e2",
// "-7", "1/2", "12 km". A trailing full stop is ignored. ok is false for
// anything else.
func ParseNumber(text string) (Number, bool) {
	s := strings.TrimSpace(text)
	s = strings.TrimSuffix(s, ".")
	m := numberPattern().FindStringSubmatch(s)
	if m == nil {
		return Number{}, false
	}
	v, err := strconv.ParseFloat(strings.ReplaceAll(m[3], ",", ""), 64)
	if err != nil {
		return Number{}, false
	}
	if m[4] != "" {
		exp, err := strconv.Atoi(m[4])
		if err != nil {
			return Number{}, false
		}
		v *= math.Pow(10, float64(exp))
	}
	if m[5] != "" {
		den, err := strconv.ParseFloat(m[5], 64)
		if err != nil || den == 0 {
			return Number{}, false
		}
		v /= den
	}
	if isMinus(m[1]) != isMinus(m[2]) {
		v = -v
	}
	if math.IsInf(v, 0) || math.IsNaN(v) {
		return Number{}, false
	}
	return Number{Value: v, Unit: strings.ToLower(m[6])}, true
}

func isMinus(sign string) bool { return sign == "-" || sign == "−" }

// lastNumberPattern finds number-looking tokens inside prose.
var lastNumberPattern = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`[-−]?[$€£¥]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:[eE][-+]?\d+)?%?`)
})

// LastNumber returns the last number written in text, for answers that
// wrap the number in a sentence ("The total is 42.").
func LastNumber(text string) (Number, bool) {
	all := lastNumberPattern().FindAllString(text, -1)
	if len(all) == 0 {
		return Number{}, false
	}
	return ParseNumber(all[len(all)-1])
}

// DefaultTolerance is the relative tolerance of numeric grading.
const DefaultTolerance = 1e-6

// NumbersMatch compares got with want within a relative tolerance. Units
// must agree when both are given; a bare number matches a number with a
// unit. A percentage also matches its fraction ("50%" and "0.5").
func NumbersMatch(want, got Number, tol float64) bool {
	if want.Unit != "" && got.Unit != "" && want.Unit != got.Unit {
		return false
	}
	if closeEnough(want.Value, got.Value, tol) {
		return true
	}
	switch {
	case want.Unit == "%" && got.Unit == "":
		return closeEnough(want.Value/100, got.Value, tol)
	case got.Unit == "%" && want.Unit == "":
		return closeEnough(want.Value, got.Value/100, tol)
	}
	return false
}

func closeEnough(a, b, tol float64) bool {
	if a == b {
		return true
	}
	return math.Abs(a-b) <= tol*math.Max(math.Abs(a), math.Abs(b))
}
