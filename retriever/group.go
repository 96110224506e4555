package retriever

// groupDepth is how many chunks per wanted result a grouped search ranks,
// so that folding several chunks of one file still leaves K files.
const groupDepth = 3

// groupByPath keeps the best hit of each file, in rank order, with the
// file's other hits folded under it in More, and at most k groups.
func groupByPath(hits []Hit, k int) []Hit {
	index := map[string]int{}
	out := make([]Hit, 0, min(k, len(hits)))
	for _, h := range hits {
		if i, ok := index[h.Path]; ok {
			out[i].More = append(out[i].More, h)
			continue
		}
		if len(out) == k {
			continue
		}
		index[h.Path] = len(out)
		out = append(out, h)
	}
	return out
}
