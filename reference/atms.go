package reference

import (
	"hash/fnv"
	"math"
	"strconv"
)

// ATM search bounds and defaults of GET /v3.1/nodes/atms.
const (
	ATMsPerSearch       = 50  // every search finds this many ATMs, spread over the radius
	DefaultATMRadius    = 5.0 // miles, when the request gives none
	MaxATMRadius        = 100.0
	milesPerDegreeOfLat = 69.0
)

// Place is a point with the postal address the fake gives ATMs around it.
type Place struct {
	PostalCode string
	City       string
	State      string
	Latitude   float64
	Longitude  float64
}

// DefaultATMPlace is downtown San Francisco, the first place of the table. (GET
// /nodes/atms searched around it when a search named neither a zip nor lat/lon; such a
// search now finds no ATMs.)
var DefaultATMPlace = places[0]

var places = []Place{
	{"94105", "SAN FRANCISCO", "CA", 37.789, -122.3942},
	{"94114", "SAN FRANCISCO", "CA", 37.7609, -122.435},
	{"10001", "NEW YORK", "NY", 40.7506, -73.9972},
	{"60601", "CHICAGO", "IL", 41.8858, -87.6181},
	{"73301", "AUSTIN", "TX", 30.2672, -97.7431},
	{"98101", "SEATTLE", "WA", 47.6114, -122.3305},
	{"33131", "MIAMI", "FL", 25.7663, -80.1917},
	{"30303", "ATLANTA", "GA", 33.7525, -84.3888},
	{"80202", "DENVER", "CO", 39.7527, -104.9997},
	{"02108", "BOSTON", "MA", 42.3576, -71.0637},
	{"38103", "MEMPHIS", "TN", 35.1495, -90.049},
	{"90012", "LOS ANGELES", "CA", 34.0614, -118.2385},
}

// ZipPlace is the centre of a search by zip code. A zip the fake knows gets its own
// place; any other gets the place of a known city picked from the zip's hash, with the
// zip as its postal code.
func ZipPlace(zip string) Place {
	for _, p := range places {
		if p.PostalCode == zip {
			return p
		}
	}
	p := places[hash64(zip)%uint64(len(places))]
	p.PostalCode = zip
	return p
}

// CoordinatesPlace is the centre of a search by lat and lon: the point, with the
// address of the nearest city the fake knows.
func CoordinatesPlace(lat, lon float64) Place {
	best, bestD := places[0], math.Inf(1)
	for _, p := range places {
		if d := miles(lat, lon, p.Latitude, p.Longitude); d < bestD {
			best, bestD = p, d
		}
	}
	best.Latitude, best.Longitude = lat, lon
	return best
}

// ATMAddress is an ATM's postal address.
type ATMAddress struct {
	City       string `json:"city"`
	Country    string `json:"country"`
	PostalCode string `json:"postalCode"`
	State      string `json:"state"`
	Street     string `json:"street"`
}

// Coordinates is a point in decimal degrees.
type Coordinates struct {
	Latitude  float64 `json:"latitude"`
	Longitude float64 `json:"longitude"`
}

// ATMLocation is an ATM, in the field names the service answered with.
type ATMLocation struct {
	Address                 ATMAddress  `json:"address"`
	Coordinates             Coordinates `json:"coordinates"`
	ID                      string      `json:"id"`
	IsAvailable24Hours      bool        `json:"isAvailable24Hours"`
	IsDepositAvailable      bool        `json:"isDepositAvailable"`
	IsHandicappedAccessible bool        `json:"isHandicappedAccessible"`
	IsOffPremise            bool        `json:"isOffPremise"`
	IsSeasonal              bool        `json:"isSeasonal"`
	LanguageType            *string     `json:"languageType"`
	LocationDescription     string      `json:"locationDescription"`
	LogoName                string      `json:"logoName"`
	Name                    string      `json:"name"`
}

// NearbyATM is one entry of the atms list: an ATM and its distance in miles.
type NearbyATM struct {
	ATMLocation ATMLocation `json:"atmLocation"`
	Distance    float64     `json:"distance"`
}

var atmOperators = []struct{ name, logo string }{
	{"7-ELEVEN", "711"}, {"CVS PHARMACY", "CVS"}, {"WALGREENS", "WAG"}, {"TARGET", "TGT"},
	{"SAFEWAY", "SFW"}, {"SPEEDWAY", "SPW"}, {"CIRCLE K", "CRK"}, {"KROGER", "KRG"},
	{"RITE AID", "RAD"}, {"COSTCO", "CST"},
}

var atmStreets = []string{
	"MAIN ST", "MARKET ST", "BROADWAY", "OAK AVE", "PINE ST", "MAPLE AVE", "2ND ST",
	"WASHINGTON BLVD", "PARK AVE", "MISSION ST", "LAKE DR", "HILL RD",
}

// NearbyATMs returns the ATMsPerSearch ATMs around center within radius miles, nearest
// first. The list depends only on the centre and the radius: the i-th ATM (from 0) is
// at distance radius·(i+0.5)/ATMsPerSearch, in a direction, with a name, street and
// features drawn from a hash of the centre and i. Coordinates are rounded to 6
// decimals and distances to 4.
func NearbyATMs(center Place, radius float64) []NearbyATM {
	out := make([]NearbyATM, ATMsPerSearch)
	seed := strconv.FormatFloat(center.Latitude, 'f', 6, 64) + "," + strconv.FormatFloat(center.Longitude, 'f', 6, 64) + "," + center.PostalCode
	for i := range out {
		h := hash64(seed + "#" + strconv.Itoa(i))
		d := radius * (float64(i) + 0.5) / ATMsPerSearch
		bearing := float64(h%360) * math.Pi / 180
		lat := center.Latitude + d/milesPerDegreeOfLat*math.Cos(bearing)
		lon := center.Longitude + d/(milesPerDegreeOfLat*math.Max(math.Cos(center.Latitude*math.Pi/180), 0.01))*math.Sin(bearing)
		op := atmOperators[(h>>9)%uint64(len(atmOperators))]
		street := strconv.FormatUint(100+(h>>13)%9900, 10) + " " + atmStreets[(h>>27)%uint64(len(atmStreets))]
		addr := ATMAddress{City: center.City, Country: "USA", PostalCode: center.PostalCode, State: center.State, Street: street}
		out[i] = NearbyATM{
			ATMLocation: ATMLocation{
				Address:                 addr,
				Coordinates:             Coordinates{Latitude: round(lat, 6), Longitude: round(lon, 6)},
				ID:                      strconv.FormatUint(100000+(h>>33)%900000, 10),
				IsAvailable24Hours:      h&(1<<40) != 0,
				IsDepositAvailable:      h&(1<<41) != 0,
				IsHandicappedAccessible: h&(1<<42) != 0,
				IsOffPremise:            h&(1<<43) != 0,
				IsSeasonal:              h&(0xF<<44) == 0,
				LocationDescription:     street + "," + addr.City + "," + addr.State + "," + addr.PostalCode + ",USA",
				LogoName:                op.logo,
				Name:                    op.name,
			},
			Distance: round(d, 4),
		}
	}
	return out
}

func hash64(s string) uint64 {
	h := fnv.New64a()
	_, _ = h.Write([]byte(s))
	return h.Sum64()
}

func round(x float64, places int) float64 {
	p := math.Pow(10, float64(places))
	return math.Round(x*p) / p
}

// miles is the equirectangular distance between two points, good enough to pick the
// nearest city.
func miles(lat1, lon1, lat2, lon2 float64) float64 {
	x := (lon2 - lon1) * math.Cos((lat1+lat2)/2*math.Pi/180)
	y := lat2 - lat1
	return math.Hypot(x, y) * milesPerDegreeOfLat
}
