package hub

import "strconv"

// PriceText is a price of a call as people read it: its price per call and
// per second of its wall time (CostPerCall, CostPerSecond), each that is
// set, in plain decimals of dollars followed by its unit (callUnit, such as
// " per call" or "/call", and secondUnit), joined by " + "; "free" when
// neither is set. Each surface picks its units; the rule is the same.
func PriceText(perCall, perSecond float64, callUnit, secondUnit string) string {
	dollars := func(v float64) string { return "$" + strconv.FormatFloat(v, 'f', -1, 64) }
	switch {
	case perCall > 0 && perSecond > 0:
		return dollars(perCall) + callUnit + " + " + dollars(perSecond) + secondUnit
	case perSecond > 0:
		return dollars(perSecond) + secondUnit
	case perCall > 0:
		return dollars(perCall) + callUnit
	}
	return "free"
}
