// Package ui is the Fyne desktop. It sees only its own Backend interface and
// holds no routing, pricing or storage logic.
package ui
