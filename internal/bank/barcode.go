// Barcodes, the bank's side: a cash-deposit barcode's request, digits and ITF image.

package bank

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math/big"
	"strconv"
	"strings"

	"github.com/synapsefake/synapsefake/internal/apierr"
	"github.com/synapsefake/synapsefake/reference"
)

// BarcodeRequest is the body of POST .../nodes/{node_id}/barcode.
type BarcodeRequest struct {
	Amount *struct {
		Amount   *float64 `json:"amount"`
		Currency *string  `json:"currency"`
	} `json:"amount"`
	RetailerID *int64 `json:"retailer_id"`
}

// Validate applies the payload rules (400 / "200"); the rules that need the
// store or name a value the fake does not serve (409 / "400") live in
// store.barcode.
func (r BarcodeRequest) Validate() error {
	switch {
	case r.Amount == nil || r.Amount.Amount == nil:
		return apierr.Payload("missing_amount", "amount.amount is required.")
	case r.Amount.Currency == nil || *r.Amount.Currency == "":
		return apierr.Payload("missing_currency", "amount.currency is required.")
	case r.RetailerID == nil:
		return apierr.Payload("missing_retailer_id", "retailer_id is required.")
	case !ValidAmount(*r.Amount.Amount):
		return errInvalidAmount("amount.amount")
	case *r.RetailerID <= 0:
		return apierr.Payload("invalid_retailer_id", "retailer_id must be a positive integer.")
	}
	return nil
}

// BarcodeView is the answer of POST .../barcode.
type BarcodeView struct {
	ID            string `json:"_id"`
	Barcode       string `json:"barcode"`
	BarcodeBase64 string `json:"barcode_base64"`
}

// barcode checks that the node can take a cash deposit and returns the id
// of the new barcode. It stores nothing.
func (st *Store) barcode(userID, nodeID string, req BarcodeRequest) (string, error) {
	defer st.lock().unlock()
	n, err := st.userNode(userID, nodeID)
	if err != nil {
		return "", err
	}
	if !n.isActive {
		return "", apierr.NotAllowed("node_inactive", "Node %s is deleted.", nodeID)
	}
	if reference.BaseNodeType(n.typ) != reference.NodeDepositUS {
		return "", apierr.Incorrect("invalid_node_type", "Cash-deposit barcodes are only available for %s nodes; node %s is %s.",
			reference.NodeDepositUS, nodeID, n.typ)
	}
	if *req.Amount.Currency != "USD" {
		return "", apierr.Incorrect("unsupported_currency", "Currency %s is not supported; use USD.", *req.Amount.Currency)
	}
	return st.newID(), nil
}

// barcodeLength is the number of digits of a barcode, check digit included.
const barcodeLength = 30

// BarcodeDigits derives a barcode from its id, amount and retailer: 29
// digits of a SHA-256 digest followed by a Luhn check digit.
func BarcodeDigits(id string, amount Cents, retailerID int64) string {
	sum := sha256.Sum256([]byte(id + "|" + strconv.FormatInt(int64(amount), 10) + "|" + strconv.FormatInt(retailerID, 10)))
	mod := new(big.Int).Exp(big.NewInt(10), big.NewInt(barcodeLength-1), nil)
	n := new(big.Int).Mod(new(big.Int).SetBytes(sum[:]), mod)
	body := n.String()
	body = strings.Repeat("0", barcodeLength-1-len(body)) + body
	return body + string(rune('0'+luhnCheckDigit(body)))
}

// luhnCheckDigit returns the digit that makes digits+digit pass the Luhn check.
func luhnCheckDigit(digits string) int {
	sum := 0
	for i := range len(digits) {
		d := int(digits[len(digits)-1-i] - '0')
		if i%2 == 0 { // doubled: these positions are odd once the check digit is appended
			d *= 2
			if d > 9 {
				d -= 9
			}
		}
		sum += d
	}
	return (10 - sum%10) % 10
}

// itfPatterns are the five elements of each digit in Interleaved 2 of 5;
// true is a wide element.
var itfPatterns = [10][5]bool{
	{false, false, true, true, false}, // 0
	{true, false, false, false, true}, // 1
	{false, true, false, false, true}, // 2
	{true, true, false, false, false}, // 3
	{false, false, true, false, true}, // 4
	{true, false, true, false, false}, // 5
	{false, true, true, false, false}, // 6
	{false, false, false, true, true}, // 7
	{true, false, false, true, false}, // 8
	{false, true, false, true, false}, // 9
}

// The geometry of the rendered barcode.
const (
	itfModule = 2   // pixels per narrow module
	itfWide   = 3   // modules per wide element
	itfQuiet  = 10  // modules of white on either side
	itfHeight = 120 // pixels
	itfMargin = 10  // pixels of white above and below the bars
)

// itfElements returns the widths, in modules, of the alternating bars and
// spaces (a bar first) that encode digits in Interleaved 2 of 5: the start
// pattern, each pair of digits (the first in the bars, the second in the
// spaces), the stop pattern.
func itfElements(digits string) ([]int, error) {
	if len(digits)%2 != 0 || !AllDigits(digits) {
		return nil, fmt.Errorf("interleaved 2 of 5 needs an even number of digits, got %q", digits)
	}
	width := func(wide bool) int {
		if wide {
			return itfWide
		}
		return 1
	}
	els := []int{1, 1, 1, 1} // start: narrow bar, space, bar, space
	for i := 0; i < len(digits); i += 2 {
		a, b := digits[i]-'0', digits[i+1]-'0'
		for k := range 5 {
			els = append(els, width(itfPatterns[a][k]), width(itfPatterns[b][k]))
		}
	}
	return append(els, itfWide, 1, 1), nil // stop: wide bar, narrow space, narrow bar
}

// RenderITF draws digits as an Interleaved 2 of 5 barcode and encodes it as
// a two-colour PNG.
func RenderITF(digits string) ([]byte, error) {
	els, err := itfElements(digits)
	if err != nil {
		return nil, err
	}
	modules := 2 * itfQuiet
	for _, e := range els {
		modules += e
	}
	img := image.NewPaletted(image.Rect(0, 0, modules*itfModule, itfHeight), color.Palette{color.White, color.Black})
	x := itfQuiet * itfModule
	for i, e := range els {
		w := e * itfModule
		if i%2 == 0 { // a bar
			for y := itfMargin; y < itfHeight-itfMargin; y++ {
				for dx := range w {
					img.SetColorIndex(x+dx, y, 1)
				}
			}
		}
		x += w
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
