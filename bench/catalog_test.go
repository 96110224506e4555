package bench

import (
	"context"
	"testing"
	"time"
)

func TestRunCatalogBuildsEveryTool(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	rep, err := RunCatalog(ctx, CatalogOptions{Servers: 7, ToolsPerServer: 11, Lookups: 500, Listings: 20})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Tools != 77 {
		t.Errorf("catalog holds %d tools, want 77", rep.Tools)
	}
	if rep.Listing.N != 20 || rep.Lookup.N != 500 || rep.Suggest.N == 0 {
		t.Errorf("sample counts: listing %d, lookup %d, suggest %d", rep.Listing.N, rep.Lookup.N, rep.Suggest.N)
	}
	if rep.ListingBytes < 77*40 {
		t.Errorf("an encoded listing of 77 tools is only %d bytes", rep.ListingBytes)
	}
}

func TestSummarize(t *testing.T) {
	var samples []time.Duration
	for i := 100; i >= 1; i-- {
		samples = append(samples, time.Duration(i)*time.Millisecond)
	}
	p := summarize(samples)
	if p.N != 100 || p.P50 != 50*time.Millisecond || p.P99 != 99*time.Millisecond || p.Max != 100*time.Millisecond {
		t.Errorf("summarize = %+v", p)
	}
	if (summarize(nil) != Percentiles{}) {
		t.Error("summarize(nil) is not zero")
	}
}
