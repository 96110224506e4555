package eval

import (
	"fmt"
	"html/template"
	"io"
	"sync"
)

// htmlPage is the self-contained report page: no script, no external asset.
// It is parsed on first use, not when the package initialises: every
// toolhub process links this package, and html/template's parse touches
// pages of code and heap that "toolhub serve" would keep for nothing.
var htmlPage = sync.OnceValue(parseHTMLPage)

func parseHTMLPage() *template.Template {
	return template.Must(template.New("report").Funcs(template.FuncMap{
		"pct":    func(v float64) string { return fmt.Sprintf("%.3f", v) },
		"num":    func(v float64) string { return fmt.Sprintf("%.4f", v) },
		"mul100": func(v float64) float64 { return 100 * v },
		"cost":   func(usd float64) float64 { return usd }, // replaced per report by the cost unit
	}).Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>toolhub {{.R.Kind}} eval</title>
<style>
body{font-family:system-ui,sans-serif;margin:2em;color:#222}
table{border-collapse:collapse;margin:1em 0}
td,th{border:1px solid #ccc;padding:4px 8px;text-align:right}
td:first-child,th:first-child{text-align:left}
tr.frontier td:first-child{font-weight:bold}
.legend span{margin-right:1.5em}
</style></head><body>
<h1>toolhub {{.R.Kind}} eval</h1>
<p>{{.R.Tasks}} tasks from <code>{{.R.Source}}</code>. Reward: Appendix L against <code>{{.R.Base}}</code>
(P: outcome {{.R.Preference.Outcome}}, cost {{.R.Preference.Cost}}, latency {{.R.Preference.Latency}}).</p>
<h2>Accuracy versus cost</h2>
{{.Chart}}
<h2>Results</h2>
<p class="legend">Costs in {{.CostLabel}}. <b>Bold</b> policies are on the Pareto frontier: no other policy (the oracle aside) is at least as accurate for less, or more accurate for as much.</p>
<table id="results"><tr><th>policy</th><th>n</th><th>accuracy</th><th>cost ({{.CostLabel}})</th><th>latency (s)</th><th>reward</th><th>failed</th></tr>
{{range .R.Policies}}<tr{{if .OnFrontier}} class="frontier"{{end}}><td>{{.Name}}</td><td>{{.Tasks}}</td><td>{{pct .Accuracy}}</td><td>{{num (cost .CostUSD)}}</td><td>{{.LatencyText}}</td><td>{{pct .Reward}}</td><td>{{.Failed}}</td></tr>
{{end}}</table>
<h2>Calls per task</h2>
<table id="tool-use"><tr><th>policy</th>{{range .Tools}}<th>{{.}}</th>{{end}}</tr>
{{range $p := .R.Policies}}<tr><td>{{$p.Name}}</td>{{range $.Tools}}<td>{{printf "%.2f" (index $p.Calls .)}}</td>{{end}}</tr>
{{end}}</table>
{{range .R.Sweeps}}<h2>Router sweep: {{.Router}}</h2>
<p>Best single model: <code>{{.BestSingle}}</code>, accuracy {{pct .BestAcc}} at {{num .BestCost}} {{$.CostLabel}}.
{{if .Matching}}<code>{{.Matching}}</code> reaches it, saving {{printf "%.0f" (mul100 .Saving)}}% of its cost.{{else}}No sweep point reaches it.{{end}}
Accuracy gain at no more than its cost: {{printf "%+.3f" .Gain}}.
{{with .Operating}}Operating point chosen on train, out of fold: <code>{{.Policy}}</code>, here accuracy {{pct .Accuracy}} at {{num .Cost}} {{$.CostLabel}}.{{end}}
Fixed grid: AIQ {{pct .AIQ}}, APGR {{pct .APGR}} (strong <code>{{.Strong}}</code>, weak <code>{{.Weak}}</code>){{with .CPT50}}, CPT(50%) {{num .}} {{$.CostLabel}}{{end}}.</p>{{end}}
{{with .R.ChosenSweep}}<p id="chosen">Chosen on train, out of fold, among the routers' operating points: <code>{{.Operating.Policy}}</code>, here accuracy {{pct .Operating.Accuracy}} at {{num .Operating.Cost}} {{$.CostLabel}} (best single model: {{pct .BestAcc}} at {{num .BestCost}} {{$.CostLabel}}).</p>{{end}}
<h2>Notes</h2><ul>{{range .R.Notes}}<li>{{.}}</li>{{end}}</ul>
{{if .R.Command}}<p>Reproduce: <code>{{.R.Command}}</code></p>{{end}}
</body></html>
`))
}

// WriteHTML writes the report as one self-contained HTML page with the
// accuracy-versus-cost chart inline as SVG.
func (r *Report) WriteHTML(w io.Writer) error {
	label, factor := r.CostScale()
	page, err := htmlPage().Clone()
	if err != nil {
		return fmt.Errorf("clone report template: %w", err)
	}
	page.Funcs(template.FuncMap{"cost": func(usd float64) float64 { return usd * factor }})
	return page.Execute(w, struct {
		R         *Report
		Chart     template.HTML
		CostLabel string
		Tools     []string
	}{R: r, Chart: template.HTML(r.ChartSVG()), CostLabel: label, Tools: r.Tools()})
}
