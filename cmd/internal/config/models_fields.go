package config

import (
	"net/url"
	"slices"
	"time"

	"github.com/toolhub/toolhub/hub"
	"github.com/toolhub/toolhub/policies"
)

// readEndpointFields decodes the endpoint keys of one model object and
// reports unknown keys; it returns which keys were present.
func readEndpointFields(d decoder, fields []member, what string, known []string, ep *hub.ModelEndpoint) map[string]bool {
	set := map[string]bool{}
	for _, f := range fields {
		set[f.key] = true
		at := what + "." + f.key
		switch f.key {
		case "baseUrl":
			ep.BaseURL, _ = d.str(f.value, at)
		case "model":
			ep.ModelID, _ = d.str(f.value, at)
		case "apiKeyEnv":
			ep.APIKeyEnv, _ = d.str(f.value, at)
		case "locality":
			if s, ok := d.str(f.value, at); ok {
				readLocality(d, f.valueAt, at, s, ep)
			}
		case "priceIn":
			ep.PriceIn = readPrice(d, f, at)
		case "priceOut":
			ep.PriceOut = readPrice(d, f, at)
		case "roles":
			ep.Roles = readRoles(d, f, at)
		case "capability":
			ep.Capability, _ = d.str(f.value, at)
		case "contextLength":
			n, _ := d.count(f.value, at)
			ep.ContextLength = int(n)
		case "answerStyle":
			if s, ok := d.str(f.value, at); ok {
				if s != policies.StyleBoxed && s != policies.StyleTagged {
					d.at(f.valueAt, "%s: want %q or %q, got %q", at, policies.StyleBoxed, policies.StyleTagged, s)
				}
				ep.AnswerStyle = s
			}
		case "timeout":
			if s, ok := d.str(f.value, at); ok {
				t, err := time.ParseDuration(s)
				if err != nil || t <= 0 {
					d.at(f.valueAt, "%s: want a positive duration such as \"90s\", got %q", at, s)
				}
				ep.Timeout = t
			}
		default:
			if !slices.Contains(known, f.key) {
				d.at(f.keyAt, "%s: unknown key %q%s", what, f.key, didYouMean(f.key, known))
			}
		}
	}
	return set
}

func readLocality(d decoder, off int, at, s string, ep *hub.ModelEndpoint) {
	switch s {
	case LocalityLocal, LocalityRemote:
		ep.Locality = hub.Locality(s)
	default:
		d.at(off, "%s: want %q or %q, got %q", at, LocalityLocal, LocalityRemote, s)
	}
}

func readPrice(d decoder, f member, at string) float64 {
	p, ok := d.number(f.value, at)
	if ok && p < 0 {
		d.at(f.valueAt, "%s: a price must not be negative", at)
	}
	return p
}

func readRoles(d decoder, f member, at string) []string {
	roles, ok := d.strList(f.value, at)
	if !ok {
		return nil
	}
	for _, r := range roles {
		if !slices.Contains(knownRoles, r) {
			d.at(f.valueAt, "%s: unknown role %q%s", at, r, didYouMean(r, knownRoles))
		}
	}
	return roles
}

// finishEndpoint checks required fields and fills defaults: locality from
// the URL, prices from the known table, answer style boxed.
func finishEndpoint(d decoder, off int, what string, set map[string]bool, ep *hub.ModelEndpoint) {
	if ep.BaseURL == "" {
		d.at(off, "%s: baseUrl is required", what)
	} else if u, err := url.Parse(ep.BaseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		d.at(off, "%s: baseUrl %q is not an http(s) URL", what, ep.BaseURL)
	}
	if ep.ModelID == "" {
		d.at(off, "%s: model is required", what)
	}
	if !set["locality"] {
		ep.Locality = hub.LocalityRemote
		if isLoopbackURL(ep.BaseURL) {
			ep.Locality = hub.LocalityLocal
		}
	}
	in, out, known := policies.KnownPrice(ep.ModelID)
	if known && !set["priceIn"] {
		ep.PriceIn = in
	}
	if known && !set["priceOut"] {
		ep.PriceOut = out
	}
	if ep.AnswerStyle == "" && slices.Contains(ep.Roles, policies.RoleAnswer) {
		ep.AnswerStyle = policies.StyleBoxed
	}
}
