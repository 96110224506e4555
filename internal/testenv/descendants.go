package testenv

// Descendants lists the pids of every living process whose ancestry reaches
// pid, from the system's table of processes and their parents.
func Descendants(pid int) []int {
	children := map[int][]int{}
	for child, parent := range parentsByPid() {
		children[parent] = append(children[parent], child)
	}
	var out []int
	seen := map[int]bool{pid: true}
	queue := []int{pid}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, c := range children[p] {
			if !seen[c] { // Windows reuses ids, so a parent id can point back
				seen[c] = true
				out = append(out, c)
				queue = append(queue, c)
			}
		}
	}
	return out
}
