package config

import "github.com/toolhub/toolhub/policies"

// Research mode's settings under "orchestrator": which of the paper's
// evaluations it follows ("variant") and whether search stops being offered
// once documents exist ("dropSearchWithDocuments"); and the names of the
// policy runs use ("policy") and of the one used when no orchestrator
// answers ("fallback").

// readVariant decodes "orchestrator.variant"; a name other than hle or
// frames is reported where it stands and leaves the default.
func readVariant(d decoder, f member, out *Models) {
	name, ok := d.str(f.value, "orchestrator.variant")
	if !ok {
		return
	}
	v, err := policies.ParseVariant(name)
	if err != nil {
		d.at(f.valueAt, "orchestrator.variant: %v", err)
		return
	}
	out.Variant = v
}

// finishResearch applies the FRAMES variant's own default: search is not
// offered once a document exists, unless dropSearchWithDocuments says
// otherwise. set holds the orchestrator keys present.
func finishResearch(out *Models, set map[string]bool) {
	if out.Variant == policies.VariantFRAMES && !set["dropSearchWithDocuments"] {
		out.DropSearchWithDocuments = true
	}
}

// readPolicyName decodes "orchestrator.policy" or "orchestrator.fallback"
// (asFallback): a name no policy has, or the orchestrator's as its own
// fallback, is reported where it stands and leaves the default.
func readPolicyName(d decoder, f member, what string, asFallback bool) string {
	name, ok := d.str(f.value, what)
	if !ok || name == "" { // "": the default
		return ""
	}
	if err := policies.CheckPolicyName(name, asFallback); err != nil {
		d.at(f.valueAt, "%s: %v", what, err)
		return ""
	}
	return name
}
