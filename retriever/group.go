package retriever

import "context"

// groupDepth is how many chunks per wanted result a grouped search ranks
// first, so that folding several chunks of one file most often still
// leaves K files in one round.
const groupDepth = 3

// groupGrowth is how much deeper each further round of a grouped search
// ranks, when the chunks ranked so far held fewer than K files.
const groupGrowth = 4

// rankGrouped ranks chunks for a grouped search of want files: groupDepth
// per file first, then deeper until the ranked chunks hold want files or
// every match is ranked (a leg returned fewer than asked). Only the
// chunks of the best want files are returned.
func (s *searchRun) rankGrouped(ctx context.Context, mode Mode, want int) ([]rankedID, error) {
	for depth := groupDepth * want; ; depth *= groupGrowth {
		ranked, err := s.rank(ctx, mode, depth)
		if err != nil {
			return nil, err
		}
		kept, files := bestFiles(ranked, want)
		if files == want || len(ranked) < depth {
			return kept, nil
		}
	}
}

// bestFiles keeps the ranked chunks of the first want files to appear,
// in rank order, and says how many files that is.
func bestFiles(ranked []rankedID, want int) ([]rankedID, int) {
	files := make(map[string]bool, want)
	kept := ranked[:0:0]
	for _, r := range ranked {
		path := chunkPath(r.id)
		if !files[path] {
			if len(files) == want {
				continue
			}
			files[path] = true
		}
		kept = append(kept, r)
	}
	return kept, len(files)
}

// chunkPath is the document path in a chunk ID ("path#gen.ord"); an ID
// that does not parse stands for itself.
func chunkPath(id string) string {
	ref, err := parseChunkID(id)
	if err != nil {
		return id
	}
	return ref.Path
}

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
