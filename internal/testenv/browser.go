package testenv

import (
	"context"
	"fmt"
	"net/http"
)

// ApprovingBrowser stands for a user who approves an OAuth sign-in: it
// opens the authorization URL and follows the authorization server's
// redirects back to toolhub's loopback listener, failing unless the last
// page answered 200.
func ApprovingBrowser(ctx context.Context, authURL string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, authURL, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("browser ended on %s", resp.Status)
	}
	return nil
}
