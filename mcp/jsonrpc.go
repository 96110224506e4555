package mcp

import (
	"encoding/json"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// rpcResult and rpcError encode one JSON-RPC answer to id.
func rpcResult(id json.RawMessage, result any) []byte {
	out, err := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Result  any             `json:"result"`
	}{mcpgo.JSONRPC_VERSION, id, result})
	if err != nil {
		return rpcError(id, mcpgo.INTERNAL_ERROR, "encoding the result failed: "+err.Error())
	}
	return out
}

func rpcError(id json.RawMessage, code int, message string) []byte {
	return rpcErrorData(id, code, message, nil)
}

// rpcErrorData is rpcError with the error's data.
func rpcErrorData(id json.RawMessage, code int, message string, data any) []byte {
	out, _ := json.Marshal(struct {
		JSONRPC string                    `json:"jsonrpc"`
		ID      json.RawMessage           `json:"id"`
		Error   mcpgo.JSONRPCErrorDetails `json:"error"`
	}{mcpgo.JSONRPC_VERSION, id, mcpgo.NewJSONRPCErrorDetails(code, message, data)})
	return out
}
