// Package deploy_test validates the deployment files: the Kubernetes
// manifests, the compose file and the Dockerfile, and builds and runs the
// image when a container runtime is present.
package deploy_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/graftgql/graft/internal/envconf"
)

// doc is one parsed YAML document, walked with get.
type doc = map[string]any

// get follows a path of keys and list indexes through v.
func get(v any, path ...any) any {
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, _ := v.(map[string]any)
			v = m[k]
		case int:
			l, _ := v.([]any)
			if k >= len(l) {
				return nil
			}
			v = l[k]
		}
	}
	return v
}

func str(v any, path ...any) string { s, _ := get(v, path...).(string); return s }

// readDocs parses every YAML document of a file.
func readDocs(t *testing.T, path string) []doc {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dec := yaml.NewDecoder(bytes.NewReader(b))
	var docs []doc
	for {
		var d doc
		err := dec.Decode(&d)
		if errors.Is(err, io.EOF) {
			return docs
		}
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		docs = append(docs, d)
	}
}

// declared is every environment variable graft reads.
func declared() map[string]bool {
	names := map[string]bool{}
	for _, s := range envconf.Sections() {
		for _, v := range s.Vars {
			names[v.Name] = true
		}
	}
	return names
}

// TestKubernetesManifests checks the essentials of the manifests: each
// object's kind and API version, selectors that match the pods, probes on
// /ready and /health, resource requests, a drain delay shorter than the
// termination grace period, and only variables graft reads.
func TestKubernetesManifests(t *testing.T) {
	docs := readDocs(t, filepath.Join("kubernetes", "graft.yaml"))
	byKind := map[string]doc{}
	for _, d := range docs {
		if str(d, "metadata", "name") == "" {
			t.Errorf("%s without metadata.name", str(d, "kind"))
		}
		byKind[str(d, "kind")] = d
	}
	for kind, api := range map[string]string{"Deployment": "apps/v1", "Service": "v1",
		"PodDisruptionBudget": "policy/v1", "HorizontalPodAutoscaler": "autoscaling/v2"} {
		d, ok := byKind[kind]
		if !ok {
			t.Fatalf("no %s in the manifests", kind)
		}
		if got := str(d, "apiVersion"); got != api {
			t.Errorf("%s apiVersion %q, want %q", kind, got, api)
		}
	}
	dep := byKind["Deployment"]
	podLabels, _ := get(dep, "spec", "template", "metadata", "labels").(map[string]any)
	matches := func(what string, sel any) {
		m, _ := sel.(map[string]any)
		if len(m) == 0 {
			t.Errorf("%s has no selector", what)
		}
		for k, v := range m {
			if podLabels[k] != v {
				t.Errorf("%s selects %s=%v, which the pods do not carry (%v)", what, k, v, podLabels)
			}
		}
	}
	matches("Deployment", get(dep, "spec", "selector", "matchLabels"))
	matches("Service", get(byKind["Service"], "spec", "selector"))
	matches("PodDisruptionBudget", get(byKind["PodDisruptionBudget"], "spec", "selector", "matchLabels"))
	if str(byKind["HorizontalPodAutoscaler"], "spec", "scaleTargetRef", "name") != str(dep, "metadata", "name") ||
		str(byKind["HorizontalPodAutoscaler"], "spec", "scaleTargetRef", "kind") != "Deployment" {
		t.Error("the HorizontalPodAutoscaler does not scale the Deployment")
	}
	if min, _ := get(byKind["HorizontalPodAutoscaler"], "spec", "minReplicas").(int); min < 2 {
		t.Errorf("HPA minReplicas %d: the PodDisruptionBudget needs two pods to allow a disruption", min)
	}

	c := get(dep, "spec", "template", "spec", "containers", 0)
	ports := map[string]int{}
	for _, p := range get(c, "ports").([]any) {
		ports[str(p, "name")], _ = get(p, "containerPort").(int)
	}
	env := map[string]string{}
	names := declared()
	for _, e := range get(c, "env").([]any) {
		name := str(e, "name")
		env[name] = str(e, "value")
		if !names[name] && !strings.HasPrefix(name, "GO") {
			t.Errorf("env %s is no variable graft reads", name)
		}
	}
	if port, _ := strconv.Atoi(env["PORT"]); port == 0 || ports["http"] != port {
		t.Errorf("PORT %q and the http containerPort %d differ", env["PORT"], ports["http"])
	}
	if !strings.HasSuffix(env["METRICS_ADDR"], ":"+strconv.Itoa(ports["metrics"])) {
		t.Errorf("METRICS_ADDR %q and the metrics containerPort %d differ", env["METRICS_ADDR"], ports["metrics"])
	}
	for _, p := range get(byKind["Service"], "spec", "ports").([]any) {
		if tp := str(p, "targetPort"); tp != "http" {
			t.Errorf("the Service exposes port %q: only http, metrics stay inside the cluster", tp)
		}
	}
	for probe, path := range map[string]string{"readinessProbe": "/ready", "livenessProbe": "/health", "startupProbe": "/health"} {
		if got := str(c, probe, "httpGet", "path"); got != path {
			t.Errorf("%s path %q, want %s", probe, got, path)
		}
		if got := str(c, probe, "httpGet", "port"); got != "http" {
			t.Errorf("%s port %q, want http", probe, got)
		}
	}
	for _, r := range []string{"cpu", "memory"} {
		if str(c, "resources", "requests", r) == "" {
			t.Errorf("no resources.requests.%s", r)
		}
	}
	delay, err1 := time.ParseDuration(env["SHUTDOWN_DELAY"])
	grace, err2 := time.ParseDuration(env["SHUTDOWN_GRACE"])
	term, _ := get(dep, "spec", "template", "spec", "terminationGracePeriodSeconds").(int)
	if err1 != nil || err2 != nil || delay <= 0 || delay+grace >= time.Duration(term)*time.Second {
		t.Errorf("SHUTDOWN_DELAY %q + SHUTDOWN_GRACE %q must be set and shorter than terminationGracePeriodSeconds %d",
			env["SHUTDOWN_DELAY"], env["SHUTDOWN_GRACE"], term)
	}
	if get(dep, "spec", "template", "spec", "securityContext", "runAsNonRoot") != true {
		t.Error("the pod may run as root")
	}
}

// TestComposeFile checks the compose file: two graft instances sharing
// one Redis behind a load balancer that lists both.
func TestComposeFile(t *testing.T) {
	docs := readDocs(t, "compose.yaml")
	if len(docs) != 1 {
		t.Fatalf("%d documents", len(docs))
	}
	services, _ := get(docs[0], "services").(map[string]any)
	for _, s := range []string{"redis", "graft-1", "graft-2", "lb"} {
		if services[s] == nil {
			t.Fatalf("no service %s", s)
		}
	}
	names := declared()
	for _, s := range []string{"graft-1", "graft-2"} {
		env, _ := get(services[s], "environment").(map[string]any)
		if !strings.HasPrefix(fmt.Sprint(env["REDIS_URL"]), "redis://redis:") {
			t.Errorf("%s REDIS_URL %v, want the redis service", s, env["REDIS_URL"])
		}
		for name := range env {
			if !names[name] {
				t.Errorf("%s: env %s is no variable graft reads", s, name)
			}
		}
		if str(services[s], "build", "dockerfile") != "Dockerfile" {
			t.Errorf("%s is not built from the Dockerfile", s)
		}
	}
	nginx := str(docs[0], "configs", "nginx", "content")
	for _, want := range []string{"server graft-1:4000", "server graft-2:4000", "Upgrade"} {
		if !strings.Contains(nginx, want) {
			t.Errorf("the load balancer's configuration lacks %q", want)
		}
	}
}

// TestDockerfile checks the image's recipe: a build stage and a
// distroless final stage, a static binary, a non-root user.
func TestDockerfile(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "Dockerfile"))
	if err != nil {
		t.Fatal(err)
	}
	df := string(b)
	froms := regexp.MustCompile(`(?m)^FROM\s+(\S+)`).FindAllStringSubmatch(df, -1)
	if len(froms) != 2 || !strings.HasPrefix(froms[0][1], "golang:") ||
		!strings.HasPrefix(froms[1][1], "gcr.io/distroless/static") {
		t.Errorf("stages %q, want golang then gcr.io/distroless/static", froms)
	}
	for _, want := range []string{"CGO_ENABLED=0", "COPY --from=build", "USER 65532:65532", "ENTRYPOINT [\"/server\"]", "EXPOSE 4000"} {
		if !strings.Contains(df, want) {
			t.Errorf("Dockerfile lacks %q", want)
		}
	}
}

// TestContainerImage builds the image and runs it, when a container
// runtime (docker or podman) is present and running: the container
// starts as a non-root user and answers /health and a query. Without a
// runtime it is skipped (CI allows this skip by name).
func TestContainerImage(t *testing.T) {
	var runtime string
	for _, name := range []string{"docker", "podman"} {
		if p, err := exec.LookPath(name); err == nil {
			if exec.Command(p, "info").Run() == nil {
				runtime = p
				break
			}
		}
	}
	if runtime == "" {
		t.Skip("no container runtime: neither docker nor podman is installed with a running engine (docker info fails); the image is not built")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	tag := "graft-test:" + strconv.FormatInt(time.Now().UnixNano(), 36)
	build := exec.CommandContext(ctx, runtime, "build", "-t", tag, "..")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("%s build: %v\n%s", runtime, err, out)
	}
	t.Cleanup(func() { _ = exec.Command(runtime, "rmi", "-f", tag).Run() })
	out, err := exec.CommandContext(ctx, runtime, "run", "-d", "--rm", "-p", "127.0.0.1::4000", tag).Output()
	if err != nil {
		t.Fatalf("%s run: %v", runtime, err)
	}
	id := strings.TrimSpace(string(out))
	t.Cleanup(func() { _ = exec.Command(runtime, "rm", "-f", id).Run() })
	logs := exec.CommandContext(ctx, runtime, "logs", "-f", id)
	stderr, _ := logs.StderrPipe()
	if err := logs.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = logs.Process.Kill(); _ = logs.Wait() }()
	sc := bufio.NewScanner(stderr)
	started := false
	for !started && sc.Scan() {
		var l struct{ Msg string }
		started = json.Unmarshal(sc.Bytes(), &l) == nil && l.Msg == "graft: ready"
	}
	if !started {
		t.Fatal("the container stopped before its start line")
	}
	port, err := exec.CommandContext(ctx, runtime, "port", id, "4000/tcp").Output()
	if err != nil {
		t.Fatal(err)
	}
	addr := strings.TrimSpace(strings.Split(string(port), "\n")[0])
	resp, err := http.Get("http://" + addr + "/health")
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("GET /health: %v %v", resp, err)
	}
	resp.Body.Close()
	user, err := exec.CommandContext(ctx, runtime, "inspect", "-f", "{{.Config.User}}", tag).Output()
	if err != nil || strings.TrimSpace(string(user)) != "65532:65532" {
		t.Errorf("image user %q (%v), want 65532:65532", user, err)
	}
}
