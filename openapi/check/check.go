// Package check validates the fake's answers against its OpenAPI document
// (openapi/v3.1.yaml, served as openapi/v3.1.json): the exchanges the
// main module's tests record when SYNAPSEFAKE_EXCHANGES names a directory
// (internal/api's Exchange), the document's own examples, and the
// document itself. It is a module of its own so that the fake's module
// requires no validator: consumers of the library download nothing new.
package check

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/pb33f/libopenapi"
	validator "github.com/pb33f/libopenapi-validator"
	"github.com/pb33f/libopenapi-validator/config"
	liberrors "github.com/pb33f/libopenapi-validator/errors"
	"github.com/pb33f/libopenapi-validator/schema_validation"
	"github.com/pb33f/libopenapi/datamodel/high/base"
	v3 "github.com/pb33f/libopenapi/datamodel/high/v3"

	"github.com/synapsefake/synapsefake/internal/api"
)

// Checker validates exchanges against one document. It is built once and
// is safe for use by one goroutine at a time.
type Checker struct {
	Model     *v3.Document
	validator validator.Validator
	schemas   schema_validation.SchemaValidator
	// routes maps each path of the document, as the fake's router writes
	// it (no version prefix), to the methods it documents.
	routes map[string][]string
}

// New builds a Checker for the document spec (JSON or YAML). The errors
// libopenapi reports building its model are errors of the document.
func New(spec []byte) (*Checker, error) {
	doc, err := libopenapi.NewDocument(spec)
	if err != nil {
		return nil, fmt.Errorf("openapi: %w", err)
	}
	model, err := doc.BuildV3Model()
	if err != nil {
		return nil, fmt.Errorf("openapi: building the model: %w", err)
	}
	v, errs := validator.NewValidator(doc, config.WithFormatAssertions())
	if len(errs) > 0 {
		return nil, fmt.Errorf("openapi: building the validator: %w", errors.Join(errs...))
	}
	c := &Checker{
		Model:     &model.Model,
		validator: v,
		schemas:   schema_validation.NewSchemaValidator(),
		routes:    map[string][]string{},
	}
	for p, item := range model.Model.Paths.PathItems.FromOldest() {
		for m := range item.GetOperations().FromOldest() {
			c.routes[p] = append(c.routes[p], strings.ToUpper(m))
		}
	}
	return c, nil
}

// Lint reports what is wrong with the document itself: its validation
// against the OpenAPI 3.1 schema, and operations without an id, a summary
// or a documented success.
func (c *Checker) Lint() []string {
	var out []string
	if ok, errs := c.validator.ValidateDocument(); !ok {
		for _, e := range errs {
			out = append(out, describe(e))
		}
	}
	for p, item := range c.Model.Paths.PathItems.FromOldest() {
		for m, op := range item.GetOperations().FromOldest() {
			where := strings.ToUpper(m) + " " + p
			if op.OperationId == "" {
				out = append(out, where+": no operationId")
			}
			if op.Summary == "" {
				out = append(out, where+": no summary")
			}
			ok := false
			for code := range op.Responses.Codes.KeysFromOldest() {
				ok = ok || strings.HasPrefix(code, "2")
			}
			if !ok {
				out = append(out, where+": no success documented")
			}
		}
	}
	return out
}

// Routes returns the document's paths (without the version prefix) and
// the methods each documents.
func (c *Checker) Routes() map[string][]string { return c.routes }

// Problem is one way an exchange disagrees with the document.
type Problem struct {
	Package, Origin string // the test that made the call (Exchange's)
	Operation       string // "POST /users/{user_id}/nodes", or the path when none matched
	Path            string // the path as sent, with its query
	Status          int
	Complaint       string // what the validator said
}

func (p Problem) String() string {
	return fmt.Sprintf("%s (%s) -> %d: %s", p.Operation, p.Path, p.Status, p.Complaint)
}

// Check validates one exchange: its answer always, its request when the
// fake accepted it (a 2xx: a request the fake took must be one the
// document allows; a refused one is expected to break the rules). Calls
// no route matches, calls with a method their path does not serve, and
// failures injected with FailNext are checked against the document's
// RouteNotFound, MethodNotAllowed and InjectedFailure answers. Calls the
// test's WithHook hook answered are the test's, not the fake's, and are
// skipped.
func (c *Checker) Check(x api.Exchange) []Problem {
	if x.Hooked {
		return nil
	}
	prob := func(op, format string, args ...any) Problem {
		path := x.Path
		if x.Query != "" {
			path += "?" + x.Query
		}
		return Problem{Package: x.Package, Origin: x.Origin, Operation: op, Path: path, Status: x.Status, Complaint: fmt.Sprintf(format, args...)}
	}
	answer, err := body(x.Answer, x.AnswerBase64)
	if err != nil {
		return []Problem{prob(x.Method+" "+x.Path, "the recorded answer: %v", err)}
	}
	op := x.Method + " " + x.Route
	if x.Route == "" {
		op = x.Method + " " + x.Path
	}
	if errorCode(answer) == "injected_failure" {
		return c.checkComponent(x, op, "InjectedFailure", answer, prob)
	}
	if x.Route == "" {
		if x.Status != http.StatusNotFound {
			return []Problem{prob(op, "no route of the fake matches the path, and the answer is not the 404 RouteNotFound documents")}
		}
		return c.checkComponent(x, op, "RouteNotFound", answer, prob)
	}
	methods, ok := c.routes[x.Route]
	if !ok {
		return []Problem{prob(op, "the fake serves route %s, which the document does not describe", x.Route)}
	}
	if !slices.Contains(methods, x.Method) {
		if errorCode(answer) == "method_not_allowed" {
			return c.checkComponent(x, op, "MethodNotAllowed", answer, prob)
		}
		return []Problem{prob(op, "the fake answered %d to a method the document does not describe for %s (it has %s)", x.Status, x.Route, strings.Join(methods, ", "))}
	}
	req, resp, err := exchangeHTTP(x, answer)
	if err != nil {
		return []Problem{prob(op, "the recorded exchange: %v", err)}
	}
	var out []Problem
	if ct := resp.Header.Get("Content-Type"); strings.HasPrefix(ct, "application/json") && ct != "application/json" {
		// The Ruby client parses nothing else (docs/fidelity.md).
		out = append(out, prob(op, "Content-Type %q, want exactly application/json", ct))
	}
	var errs []*liberrors.ValidationError
	if x.Status >= 200 && x.Status < 300 {
		_, errs = c.validator.ValidateHttpRequestResponse(req, resp)
	} else {
		_, errs = c.validator.ValidateHttpResponse(req, resp)
	}
	for _, e := range errs {
		out = append(out, prob(op, "%s", describe(e)))
	}
	return out
}

// checkComponent validates answer against the JSON schema of the
// document's response component name.
func (c *Checker) checkComponent(x api.Exchange, op, name string, answer []byte, prob func(string, string, ...any) Problem) []Problem {
	schema, err := c.ComponentResponseSchema(name)
	if err != nil {
		return []Problem{prob(op, "%v", err)}
	}
	if ct := http.Header(x.AnswerHeader).Get("Content-Type"); ct != "application/json" {
		return []Problem{prob(op, "Content-Type %q, want application/json (%s)", ct, name)}
	}
	var out []Problem
	if _, errs := c.schemas.ValidateSchemaBytes(schema, answer); len(errs) > 0 {
		for _, e := range errs {
			out = append(out, prob(op, "%s: %s", name, describe(e)))
		}
	}
	return out
}

// ComponentResponseSchema is the JSON schema of the document's response
// component name.
func (c *Checker) ComponentResponseSchema(name string) (*base.Schema, error) {
	r, ok := c.Model.Components.Responses.Get(name)
	if !ok {
		return nil, fmt.Errorf("the document has no response %s", name)
	}
	mt, ok := r.Content.Get("application/json")
	if !ok || mt.Schema == nil {
		return nil, fmt.Errorf("response %s has no application/json schema", name)
	}
	return mt.Schema.Schema(), nil
}

// ValidateSchema validates value (JSON) against schema.
func (c *Checker) ValidateSchema(schema *base.Schema, value []byte) []string {
	var out []string
	if _, errs := c.schemas.ValidateSchemaBytes(schema, value); len(errs) > 0 {
		for _, e := range errs {
			out = append(out, describe(e))
		}
	}
	return out
}

// describe is a validation error on one line: the validator's message, its
// reason, and each of the schema's complaints with where in the body.
func describe(e *liberrors.ValidationError) string {
	s := e.Message
	if e.Reason != "" && e.Reason != e.Message {
		s += ": " + e.Reason
	}
	for _, f := range e.SchemaValidationErrors {
		where := f.FieldPath
		if where == "" {
			where = "/" + strings.Join(f.InstancePath, "/")
		}
		s += fmt.Sprintf(" [%s: %s]", where, f.Reason)
	}
	return s
}

// errorCode is the error.code of a JSON error envelope, "" for another body.
func errorCode(answer []byte) string {
	var env struct {
		Error struct {
			Code string `json:"code"`
		} `json:"error"`
	}
	if json.Unmarshal(answer, &env) != nil {
		return ""
	}
	return env.Error.Code
}

// body decodes a recorded body.
func body(s string, b64 bool) ([]byte, error) {
	if b64 {
		return base64.StdEncoding.DecodeString(s)
	}
	return []byte(s), nil
}

// exchangeHTTP rebuilds the recorded call and its answer for the
// validator, on the document's server.
func exchangeHTTP(x api.Exchange, answer []byte) (*http.Request, *http.Response, error) {
	reqBody, err := body(x.Body, x.BodyBase64)
	if err != nil {
		return nil, nil, err
	}
	target := "http://127.0.0.1:8080" + x.Path
	if x.Query != "" {
		target += "?" + x.Query
	}
	header := http.Header(x.Header).Clone()
	if header == nil {
		header = http.Header{}
	}
	reqBody = asTheFakeReadsIt(x.Route, header, reqBody)
	req, err := http.NewRequest(x.Method, target, bytes.NewReader(reqBody))
	if err != nil {
		return nil, nil, err
	}
	req.Header = header
	resp := &http.Response{
		StatusCode: x.Status,
		Status:     strconv.Itoa(x.Status) + " " + http.StatusText(x.Status),
		Header:     http.Header(x.AnswerHeader).Clone(),
		Body:       io.NopCloser(bytes.NewReader(answer)),
		Request:    req,
	}
	if resp.Header == nil {
		resp.Header = http.Header{}
	}
	return req, resp, nil
}

// asTheFakeReadsIt is a request's body as the fake reads it, for the
// validator: the fake checks no Content-Type but on the dummy-tran route
// and reads any body as JSON, an empty one as none, and matches field
// names without regard to case (all the document's are lower-case). Its
// header is set to match.
func asTheFakeReadsIt(route string, header http.Header, reqBody []byte) []byte {
	if strings.HasSuffix(route, "/subnets/{subnet_id}/dummy-tran") {
		return reqBody
	}
	if len(bytes.TrimSpace(reqBody)) == 0 {
		header.Del("Content-Type")
		return nil
	}
	var v any
	if json.Unmarshal(reqBody, &v) != nil {
		return reqBody // not JSON: the validator says so, as the fake refused it
	}
	header.Set("Content-Type", "application/json")
	folded, err := json.Marshal(foldKeys(v))
	if err != nil {
		return reqBody
	}
	return folded
}

// foldKeys lower-cases the keys of every object in v.
func foldKeys(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[strings.ToLower(k)] = foldKeys(e)
		}
		return out
	case []any:
		for i, e := range x {
			x[i] = foldKeys(e)
		}
	}
	return v
}

// ReadExchanges reads every file of exchanges in dir.
func ReadExchanges(dir string) ([]api.Exchange, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if err != nil {
		return nil, err
	}
	var out []api.Exchange
	for _, f := range files {
		xs, err := readFile(f)
		if err != nil {
			return nil, err
		}
		out = append(out, xs...)
	}
	return out, nil
}

func readFile(name string) ([]api.Exchange, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []api.Exchange
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	for line := 1; sc.Scan(); line++ {
		var x api.Exchange
		if err := json.Unmarshal(sc.Bytes(), &x); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", name, line, err)
		}
		out = append(out, x)
	}
	return out, sc.Err()
}
