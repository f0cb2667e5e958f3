package main

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
)

// readyLine is printed once the webhook accepts connections, so a test can wait for it and patch a CRD.
type readyLine struct {
	Address  string `json:"address"`
	CABundle string `json:"caBundle"`
}

// serve runs the operator's conversion webhook at https://ADDR/convert until SIGTERM or SIGINT.
func serve(scheme *runtime.Scheme, addr, certDir string, out io.Writer) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("--addr %q: %w", addr, err)
	}
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("--addr %q: only a loopback IP address is allowed", addr)
	}
	if err := ensureCertificates(certDir); err != nil {
		return fmt.Errorf("writing certificates into %s: %w", certDir, err)
	}
	// Loaded before the ready line, not by ServeTLS in its goroutine: once the line is out, the caller may
	// move or clear the folder, and a certificate read after that would end the webhook.
	certificate, err := tls.LoadX509KeyPair(filepath.Join(certDir, certFile), filepath.Join(certDir, keyFile))
	if err != nil {
		return fmt.Errorf("loading the serving certificate from %s: %w", certDir, err)
	}
	listener, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.Handle("/convert", newWebhookHandler(scheme))
	server := &http.Server{
		Handler:           mux,
		ReadHeaderTimeout: 10 * time.Second,
		TLSConfig:         &tls.Config{Certificates: []tls.Certificate{certificate}, MinVersion: tls.VersionTLS12},
	}

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	served := make(chan error, 1)
	go func() {
		served <- server.ServeTLS(listener, "", "")
	}()
	caPath, err := filepath.Abs(filepath.Join(certDir, caFile))
	if err != nil {
		return err
	}
	line, _ := json.Marshal(readyLine{Address: listener.Addr().String(), CABundle: caPath})
	fmt.Fprintln(out, string(line))

	select {
	case err := <-served:
		return err
	case <-ctx.Done():
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := server.Shutdown(shutdown); err != nil {
			return err
		}
		if err := <-served; !errors.Is(err, http.ErrServerClosed) {
			return err
		}
		return nil
	}
}
