package policies

import (
	"reflect"
	"testing"
)

func TestPreferencesVector(t *testing.T) {
	tests := []struct {
		name string
		p    Preferences
		want PreferenceVector
	}{
		{"the defaults", DefaultPreferences(), PreferenceVector{Outcome: 1, Cost: 0.5, Latency: 0.5}},
		{"unrestricted states nothing", Unrestricted(), PreferenceVector{Outcome: 1}},
		{"the sliders", Preferences{CostWeight: 0.8, LatencyWeight: 0.1}, PreferenceVector{Outcome: 1, Cost: 0.8, Latency: 0.1}},
		{"sliders kept within 0..1", Preferences{CostWeight: 3, LatencyWeight: -1}, PreferenceVector{Outcome: 1, Cost: 1}},
		{"prefer weighs 1, the rest 0", Preferences{
			Tools:  map[string]Weight{"docs__search": WeightPrefer, "web__fetch": WeightAvoid, "fs__read": WeightNeutral, "x__y": WeightOff},
			Models: map[string]Weight{"local-qwen": WeightPrefer, "gpt": WeightAvoid},
		}, PreferenceVector{Outcome: 1, Tools: map[string]float64{
			"docs__search": 1, "web__fetch": 0, "fs__read": 0, "x__y": 0, "local-qwen": 1, "gpt": 0}}},
		{"patterns name no tool", Preferences{Tools: map[string]Weight{"web__*": WeightPrefer}}, PreferenceVector{Outcome: 1}},
		{"privacy is enforced, not rewarded", Preferences{Privacy: PrivacyLocalOnly}, PreferenceVector{Outcome: 1}},
		{"a name in both lists takes the higher", Preferences{
			Tools:  map[string]Weight{"same": WeightAvoid},
			Models: map[string]Weight{"same": WeightPrefer},
		}, PreferenceVector{Outcome: 1, Tools: map[string]float64{"same": 1}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.p.Vector(); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Vector() = %+v, want %+v", got, tt.want)
			}
		})
	}
}
