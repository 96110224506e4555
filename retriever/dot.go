package retriever

import "math"

// dot is the inner product of a and b (len(b) ≥ len(a)). Eight
// independent accumulators break the dependency chain so the CPU can keep
// several multiply-adds in flight.
func dot(a, b []float32) float32 {
	b = b[:len(a)]
	var s0, s1, s2, s3, s4, s5, s6, s7 float32
	i := 0
	for ; i+8 <= len(a); i += 8 {
		aa, bb := a[i:i+8:i+8], b[i:i+8:i+8]
		s0 += aa[0] * bb[0]
		s1 += aa[1] * bb[1]
		s2 += aa[2] * bb[2]
		s3 += aa[3] * bb[3]
		s4 += aa[4] * bb[4]
		s5 += aa[5] * bb[5]
		s6 += aa[6] * bb[6]
		s7 += aa[7] * bb[7]
	}
	for ; i < len(a); i++ {
		s0 += a[i] * b[i]
	}
	return ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7))
}

// quantize writes v as int8 codes in units of its largest magnitude over
// 127 and returns that unit: v[i] ≈ unit × int8(code[i]).
func quantize(v []float32, code []byte) float32 {
	var peak float32
	for _, x := range v {
		peak = max(peak, x, -x)
	}
	if peak == 0 {
		clear(code[:len(v)])
		return 0
	}
	scale := 127 / peak
	for i, x := range v {
		code[i] = byte(int8(math.Round(float64(x * scale))))
	}
	return peak / 127
}

// quantizeQuery is quantize for a query, widened to int32 once so that
// the scan does not convert it again for every row.
func quantizeQuery(v []float32) []int32 {
	code := make([]byte, len(v))
	quantize(v, code)
	out := make([]int32, len(v))
	for i, b := range code {
		out[i] = int32(int8(b))
	}
	return out
}

// dotCode is the inner product of a widened query code and a stored code
// (len(c) ≥ len(q)); 768 × 127² fits an int32 with room to spare.
func dotCode(q []int32, c []byte) int32 {
	c = c[:len(q)]
	var s0, s1, s2, s3 int32
	i := 0
	for ; i+8 <= len(q); i += 8 {
		qq, cc := q[i:i+8:i+8], c[i:i+8:i+8]
		s0 += qq[0]*int32(int8(cc[0])) + qq[4]*int32(int8(cc[4]))
		s1 += qq[1]*int32(int8(cc[1])) + qq[5]*int32(int8(cc[5]))
		s2 += qq[2]*int32(int8(cc[2])) + qq[6]*int32(int8(cc[6]))
		s3 += qq[3]*int32(int8(cc[3])) + qq[7]*int32(int8(cc[7]))
	}
	for ; i < len(q); i++ {
		s0 += q[i] * int32(int8(c[i]))
	}
	return (s0 + s1) + (s2 + s3)
}
