package cli

import (
	"fmt"

	"github.com/toolhub/toolhub/config"
	"github.com/toolhub/toolhub/policies"
)

// savedPreference is the --preference value that reads the preference
// vector from the saved preferences.
const savedPreference = "saved"

// savedPreference is pref, or with --preference saved the preference
// vector of the preferences file beside the config (Preferences.Vector;
// the defaults' when there is no file).
func (f *evalFlags) savedPreference(g *globals, pref policies.PreferenceVector) (policies.PreferenceVector, error) {
	if f.preference != savedPreference {
		return pref, nil
	}
	path, _, err := config.Locate(g.configPath)
	if err != nil {
		return pref, err
	}
	st, err := policies.OpenStore(policies.PreferencesPath(path), policies.StoreOptions{NoWatch: true})
	if err != nil {
		return pref, fmt.Errorf("--preference saved: %w", err)
	}
	defer st.Close()
	return st.Current().Vector(), nil
}
