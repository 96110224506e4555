package config

import "github.com/toolhub/toolhub/policies"

// Research mode's settings under "orchestrator": which of the paper's
// evaluations it follows ("variant") and whether search stops being offered
// once documents exist ("dropSearchWithDocuments").

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
