package reference

import (
	"slices"
	"time"
)

// The market data the fake answers is deterministic: a price depends only on the
// symbol and the UTC day of the server's clock, within ±10% (crypto) or ±5% (stocks) of
// the symbol's base price.

// CryptoCurrency is a cryptocurrency the fake quotes, with its base price in USD.
type CryptoCurrency struct {
	Symbol    string
	BaseUSD   float64
	BaseDaily float64 // base daily volume, in units of the currency
}

var cryptoCurrencies = []CryptoCurrency{
	{"BTC", 30000, 25000},
	{"ETH", 2000, 400000},
	{"LTC", 90, 900000},
	{"BCH", 250, 150000},
}

// DefaultCryptoCurrency is the currency of a market-watch request that names none.
const DefaultCryptoCurrency = "BTC"

// Market-watch bounds: limit is a number of days, today included.
const (
	DefaultMarketDays = 7
	MaxMarketDays     = 365
)

// CryptoCurrencies returns the quoted cryptocurrencies. The slice is fresh on every call.
func CryptoCurrencies() []CryptoCurrency {
	return slices.Clone(cryptoCurrencies)
}

// IsCryptoCurrency reports whether symbol is a quoted cryptocurrency.
func IsCryptoCurrency(symbol string) bool {
	return slices.ContainsFunc(cryptoCurrencies, func(c CryptoCurrency) bool { return c.Symbol == symbol })
}

func cryptoCurrency(symbol string) (CryptoCurrency, bool) {
	i := slices.IndexFunc(cryptoCurrencies, func(c CryptoCurrency) bool { return c.Symbol == symbol })
	if i < 0 {
		return CryptoCurrency{}, false
	}
	return cryptoCurrencies[i], true
}

// dayPrice is base moved by up to ±spread‰ (thousandths) by a hash of the key and the day.
func dayPrice(key string, base float64, spread uint64, day time.Time) float64 {
	h := hash64(key + "@" + day.UTC().Format(time.DateOnly))
	move := float64(int64(h%(2*spread+1))-int64(spread)) / 1000
	return round(base*(1+move), 2)
}

func utcDay(t time.Time) time.Time {
	y, m, d := t.UTC().Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// CryptoQuotes returns the quotes of GET /v3.1/nodes/crypto-quotes on the day of now:
// for every currency X, "XUSD" (USD per unit, 2 decimals) and "USDX" (units per USD,
// 8 decimals).
func CryptoQuotes(now time.Time) map[string]float64 {
	q := make(map[string]float64, 2*len(cryptoCurrencies))
	for _, c := range cryptoCurrencies {
		p := dayPrice(c.Symbol, c.BaseUSD, 100, utcDay(now))
		q[c.Symbol+"USD"] = p
		q["USD"+c.Symbol] = round(1/p, 8)
	}
	return q
}

// MarketDay is one day of market data. Date is the day's start, UTC, in milliseconds.
type MarketDay struct {
	Date   int64   `json:"date"`
	Open   float64 `json:"open"`
	High   float64 `json:"high"`
	Low    float64 `json:"low"`
	Close  float64 `json:"close"`
	Volume float64 `json:"volume"`
}

// CryptoMarketData returns days days of market data of currency, newest (the day of
// now) first. A day opens at the previous day's close; high and low are 1% beyond
// them. ok is false for a currency the fake does not quote.
func CryptoMarketData(currency string, days int, now time.Time) (data []MarketDay, ok bool) {
	c, ok := cryptoCurrency(currency)
	if !ok {
		return nil, false
	}
	today := utcDay(now)
	data = make([]MarketDay, days)
	for i := range data {
		day := today.AddDate(0, 0, -i)
		vol := dayPrice(c.Symbol+"/volume", c.BaseDaily, 300, day)
		data[i] = marketDay(day, dayPrice(c.Symbol, c.BaseUSD, 100, day.AddDate(0, 0, -1)), dayPrice(c.Symbol, c.BaseUSD, 100, day), vol)
	}
	return data, true
}

func marketDay(day time.Time, open, close, volume float64) MarketDay {
	return MarketDay{
		Date: day.UnixMilli(), Open: open, Close: close, Volume: volume,
		High: round(max(open, close)*1.01, 2), Low: round(min(open, close)*0.99, 2),
	}
}

// TradeQuote is the answer of GET /v3.1/nodes/trade-market-watch for one ticker.
type TradeQuote struct {
	Ticker        string  `json:"ticker"`
	Currency      string  `json:"currency"`
	PreviousClose float64 `json:"previous_close"`
	MarketDay
}

// ValidTicker reports whether t is a ticker symbol: 1 to 5 upper-case letters,
// optionally followed by a dot and one letter (BRK.B).
func ValidTicker(t string) bool {
	base, class, dotted := t, "", false
	if i := len(t) - 2; i > 0 && t[i] == '.' {
		base, class, dotted = t[:i], t[i+1:], true
	}
	if len(base) < 1 || len(base) > 5 || (dotted && len(class) != 1) {
		return false
	}
	for _, r := range base + class {
		if r < 'A' || r > 'Z' {
			return false
		}
	}
	return true
}

// TradeMarketData returns the quote of ticker on the day of now. Every valid ticker is
// quoted: its base price, 10.00 to 509.99 USD, and base volume come from its hash.
// ok is false for an invalid ticker.
func TradeMarketData(ticker string, now time.Time) (TradeQuote, bool) {
	if !ValidTicker(ticker) {
		return TradeQuote{}, false
	}
	return TickerMarketData(ticker, now), true
}

// TickerMarketData is TradeMarketData for any symbol, a valid ticker or not, quoted
// the same way.
func TickerMarketData(ticker string, now time.Time) TradeQuote {
	h := hash64("ticker:" + ticker)
	base := 10 + float64(h%50000)/100
	day := utcDay(now)
	prev := dayPrice(ticker, base, 50, day.AddDate(0, 0, -1))
	vol := float64(100000 + (h>>20)%9900000)
	md := marketDay(day, prev, dayPrice(ticker, base, 50, day), dayPrice(ticker+"/volume", vol, 300, day))
	md.Volume = round(md.Volume, 0)
	return TradeQuote{Ticker: ticker, Currency: "USD", PreviousClose: prev, MarketDay: md}
}
