package config

import (
	"net/url"
	"slices"
	"strings"

	"github.com/toolhub/toolhub/hub"
)

// oauthKeys are the keys of a server's "oauth" object, in the order they
// are written back.
var oauthKeys = []string{"clientId", "clientSecret", "scopes", "authServerMetadataUrl"}

// oauth decodes a server's "oauth" object.
func (r *serverReader) oauth(m member) *OAuth {
	what := r.what("oauth")
	members, ok := r.d.object(m.value, what)
	if !ok {
		return nil
	}
	o := &OAuth{}
	for _, om := range members {
		r.keyAt["oauth/"+om.key], r.valueAt["oauth/"+om.key] = om.keyAt, om.valueAt
		w := what + "." + om.key
		switch om.key {
		case "clientId":
			o.ClientID, _ = r.d.str(om.value, w)
		case "clientSecret":
			o.ClientSecret, _ = r.d.str(om.value, w)
			r.s.at["oauth/clientSecret"] = r.d.pos(om.valueAt)
		case "scopes":
			o.Scopes, _ = r.d.strList(om.value, w)
		case "authServerMetadataUrl":
			o.AuthServerMetadataURL, _ = r.d.str(om.value, w)
		default:
			r.d.at(om.keyAt, "%s: unknown key %q%s", what, om.key, didYouMean(om.key, oauthKeys))
		}
	}
	return o
}

// validateOAuth checks the "oauth" object of an http server.
func (r *serverReader) validateOAuth() {
	o := r.s.OAuth
	if o == nil {
		return
	}
	what := r.what("oauth")
	if o.ClientSecret != "" && o.ClientID == "" {
		r.d.at(r.valueAt["oauth/clientSecret"], `%s: "clientSecret" needs "clientId" (the client it belongs to)`, what)
	}
	for i, s := range o.Scopes {
		if s == "" || strings.ContainsAny(s, " \t\"\\") {
			r.d.at(r.valueAt["oauth/scopes"], "%s.scopes[%d]: want a scope name without spaces or quotes, got %q", what, i, clip(s))
		}
	}
	if raw := o.AuthServerMetadataURL; raw != "" {
		u, err := url.Parse(raw)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			r.d.at(r.valueAt["oauth/authServerMetadataUrl"], "%s.authServerMetadataUrl: want an http:// or https:// URL, got %q", what, clip(raw))
		}
	}
}

// oauthFields is o as written to a config file, its keys in oauthKeys order.
func oauthFields(o *OAuth) any {
	if o == nil {
		return nil
	}
	type written struct {
		ClientID              string   `json:"clientId,omitempty"`
		ClientSecret          string   `json:"clientSecret,omitempty"`
		Scopes                []string `json:"scopes,omitempty"`
		AuthServerMetadataURL string   `json:"authServerMetadataUrl,omitempty"`
	}
	return written{o.ClientID, o.ClientSecret, o.Scopes, o.AuthServerMetadataURL}
}

// WithOAuth adds each http server's "oauth" settings to its spec, with
// ${VAR} and ${keychain:NAME} references in clientSecret expanded through lk. A spec
// whose secret cannot be expanded is marked Invalid (file:line:col: what is
// wrong, never a value), as ServeSpecs does for env and headers.
func (f *File) WithOAuth(specs []hub.ServerSpec, lk Lookup) []hub.ServerSpec {
	out := slices.Clone(specs)
	for i := range out {
		s, ok := f.MCPServers[out[i].Name]
		if !ok || s.OAuth == nil || out[i].Transport != hub.TransportHTTP || out[i].Invalid != "" {
			continue
		}
		l := &problemList{file: f.Path}
		secret := expandValues(l, out[i].Name, "oauth", s, map[string]string{"clientSecret": s.OAuth.ClientSecret}, lk)
		if err := l.err(); err != nil {
			out[i].Invalid = strings.ReplaceAll(err.Error(), "\n", "; ")
			out[i].Env, out[i].Headers = nil, nil
			continue
		}
		out[i].OAuth = &hub.OAuthSpec{
			ClientID:              s.OAuth.ClientID,
			ClientSecret:          secret["clientSecret"],
			Scopes:                slices.Clone(s.OAuth.Scopes),
			AuthServerMetadataURL: s.OAuth.AuthServerMetadataURL,
		}
	}
	return out
}
