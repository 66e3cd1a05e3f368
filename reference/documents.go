package reference

// DocumentType is one allowed KYC document type: an entry of GET
// /v3.1/users/document-types.
type DocumentType struct {
	AllowedFileTypes []string `json:"allowed_file_types"` // empty for social and virtual documents
	BaseDocTypes     []string `json:"base_doc_types"`     // PERSONAL, BUSINESS or both
	CommonName       string   `json:"common_name"`
	Description      string   `json:"description"`
	MultipleAllowed  bool     `json:"multiple_allowed"`
	RequiredMeta     []string `json:"required_meta"`
	Type             string   `json:"type"`
}

// DocumentTypes is the object GET /v3.1/users/document-types answers with.
type DocumentTypes struct {
	PhysicalDocs []DocumentType `json:"physical_docs"`
	SocialDocs   []DocumentType `json:"social_docs"`
	VirtualDocs  []DocumentType `json:"virtual_docs"`
}

var (
	imageFiles  = []string{"png", "jpg", "jpeg"}
	paperFiles  = []string{"png", "jpg", "jpeg", "pdf"}
	videoFiles  = []string{"mov", "mp4", "webm", "avi", "flv", "mkv", "ogg"}
	personal    = []string{"PERSONAL"}
	business    = []string{"BUSINESS"}
	both        = []string{"PERSONAL", "BUSINESS"}
	addressMeta = []string{"address_street", "address_city", "address_subdivision", "address_postal_code", "address_country_code"}
)

// The lists follow the service's docs: the "Allowed Document Types" page
// (docs.synapsefi.com/api-references/users/allowed-document-types: the
// photo IDs, the video authorization and the selfie, with their file types
// and descriptions) and the older "Social Documents" and "Virtual
// Documents" pages (old-docs.synapsefi.com/docs/social-documents,
// /docs/virtual-documents: every type each lists). The provider's js
// wrapper's suite against the sandbox (test/usersTests/fetchData.test.js)
// read GOVT_ID, SSN_CARD and EIN_DOC; FACEBOOK, LINKEDIN and EMAIL_2FA; SSN,
// PASSPORT and DRIVERS_LICENSE. EMAIL, PHONE_NUMBER and IP are the social
// documents the service filed from a base document's own fields, as
// recorded.

var physicalDocs = []DocumentType{
	{imageFiles, personal, "Photo ID", "A government issued photo ID (driver's license, state ID, or passport)", false, nil, "GOVT_ID"},
	{imageFiles, personal, "International Photo ID", "A government issued photo ID (driver's license, state ID, or passport) that is not in English", false, nil, "GOVT_ID_INT"},
	{imageFiles, personal, "Back of Photo ID", "Back of a government issued photo ID (driver's license, state ID, or passport)", false, nil, "GOVT_ID_BACK"},
	{imageFiles, personal, "Back of International Photo ID", "Back of a government issued photo ID (driver's license, state ID, or passport) that is not in English", false, nil, "GOVT_ID_INT_BACK"},
	{videoFiles, personal, "Video Authorization", "A 5 second video authorizing this account", false, nil, "VIDEO_AUTHORIZATION"},
	{imageFiles, personal, "Selfie", "", false, nil, "SELFIE"},
	{paperFiles, both, "Proof of Address", "A utility bill, lease or bank statement showing the address", true, nil, "PROOF_OF_ADDRESS"},
	{paperFiles, both, "Proof of Income", "A pay stub, tax return or bank statement showing income", true, nil, "PROOF_OF_INCOME"},
	{paperFiles, both, "Proof of Account", "A bank statement showing account and routing numbers", true, nil, "PROOF_OF_ACCOUNT"},
	{paperFiles, both, "Authorization", "A signed authorization form", true, nil, "AUTHORIZATION"},
	{paperFiles, both, "Background Check", "A background check report", false, nil, "BG_CHECK"},
	{paperFiles, personal, "Social Security Card", "The user's social security card", false, nil, "SSN_CARD"},
	{paperFiles, business, "EIN Document", "The IRS letter assigning the EIN", false, nil, "EIN_DOC"},
	{paperFiles, business, "SS-4 Document", "The IRS SS-4 form", false, nil, "SS4_DOC"},
	{paperFiles, both, "W-9", "An IRS W-9 form", false, nil, "W9_DOC"},
	{paperFiles, personal, "W-2", "An IRS W-2 form", true, nil, "W2_DOC"},
	{paperFiles, both, "Voided Check", "A voided check of the account", false, nil, "VOIDED_CHECK"},
	{paperFiles, business, "Articles of Incorporation", "Articles of incorporation or organization", false, nil, "AOI"},
	{paperFiles, business, "Bylaws", "The company's bylaws or operating agreement", false, nil, "BYLAWS_DOC"},
	{paperFiles, business, "Doing Business As", "A DBA (fictitious name) filing", true, nil, "DBA_DOC"},
	{paperFiles, both, "Legal Agreement", "A signed legal agreement", true, nil, "LEGAL_AGREEMENT"},
	{paperFiles, both, "Other", "Any other document", true, nil, "OTHER"},
}

var socialDocs = []DocumentType{
	{nil, both, "Address", "The user's address", false, addressMeta, "ADDRESS"},
	{nil, both, "Mailing Address", "An address that may differ from the base document's (for shipping a card or check)", true, addressMeta, "MAILING_ADDRESS"},
	{nil, both, "Date", "The user's birth date", false, nil, "DATE"},
	{nil, both, "Email", "An email address", true, nil, "EMAIL"},
	{nil, both, "Email 2FA", "An email address verified by two-factor authentication", true, nil, "EMAIL_2FA"},
	{nil, personal, "Employer", "The employer's name", false, nil, "EMPLOYER"},
	{nil, both, "Facebook", "A Facebook user access token", false, nil, "FACEBOOK"},
	{nil, both, "IP Address", "An IP address of the user's device", true, nil, "IP"},
	{nil, both, "LinkedIn", "A LinkedIn user access token", false, nil, "LINKEDIN"},
	{nil, both, "Other", "Any other social document, kept for the record", true, nil, "OTHER"},
	{nil, both, "Phone Number", "A phone number", true, nil, "PHONE_NUMBER"},
	{nil, both, "Phone Number 2FA", "A phone number verified by two-factor authentication", true, nil, "PHONE_NUMBER_2FA"},
	{nil, both, "Twitter", "The Twitter URL of the user's profile", false, nil, "TWITTER"},
	{nil, personal, "University", "The university's name", false, nil, "UNIVERSITY"},
	{nil, business, "Website", "An active business website", true, nil, "WEBSITE"},
}

var virtualDocs = []DocumentType{
	{nil, personal, "Social Security Number", "A US social security number", false, nil, "SSN"},
	{nil, personal, "Passport", "A passport number", false, nil, "PASSPORT"},
	{nil, personal, "Driver's License", "A driver's license number", false, nil, "DRIVERS_LICENSE"},
	{nil, personal, "Personal Identification", "A national identification number", false, nil, "PERSONAL_IDENTIFICATION"},
	{nil, personal, "Citizenship", "The user's country of citizenship", false, []string{"country_of_issuance"}, "CITIZENSHIP"},
	{nil, business, "Taxpayer Identification Number", "A US EIN or TIN", false, nil, "TIN"},
	{nil, business, "DUNS", "A Dun & Bradstreet number", false, nil, "DUNS"},
	{nil, both, "Other", "Any other identification number", true, nil, "OTHER"},
}

// AllDocumentTypes returns the physical, social and virtual document types. Every
// slice, including each type's own lists (answered as [] when empty), is fresh on every call.
func AllDocumentTypes() DocumentTypes {
	return DocumentTypes{
		PhysicalDocs: copyDocumentTypes(physicalDocs),
		SocialDocs:   copyDocumentTypes(socialDocs),
		VirtualDocs:  copyDocumentTypes(virtualDocs),
	}
}

func copyDocumentTypes(in []DocumentType) []DocumentType {
	out := make([]DocumentType, len(in))
	for i, d := range in {
		d.AllowedFileTypes = append([]string{}, d.AllowedFileTypes...)
		d.BaseDocTypes = append([]string{}, d.BaseDocTypes...)
		d.RequiredMeta = append([]string{}, d.RequiredMeta...)
		out[i] = d
	}
	return out
}

// EntityScopes is the object GET /v3.1/users/entity-scopes answers with: the values a
// user document's entity_scope may take.
type EntityScopes struct {
	Scopes []string `json:"scopes"`
}

var entityScopes = []string{
	"Not Known", "Airport", "Arts & Entertainment", "Automotive", "Bank & Financial Services",
	"Bar", "Book Store", "Business Services", "Religious Organization", "Club",
	"Community/Government", "Concert Venue", "Doctor", "Event Planning/Event Services",
	"Food/Grocery", "Health/Medical/Pharmacy", "Home Improvement", "Hospital/Clinic", "Hotel",
	"Landmark", "Lawyer", "Library", "Legal", "Local Business", "Middle School",
	"Movie Theater", "Museum/Art Gallery", "Outdoor Gear/Sporting Goods", "Pet Services",
	"Professional Services", "Public Places", "Real Estate", "Restaurant/Cafe", "School",
	"Shopping/Retail", "Spas/Beauty/Personal Care", "Sports Venue",
	"Sports/Recreation/Activities", "Tours/Sightseeing", "Train Station", "Transportation",
	"University", "Aerospace/Defense", "Automobiles and Parts", "Bank/Financial Institution",
	"Biotechnology", "Cause", "Chemicals", "Community Organization", "Company",
	"Computers/Technology", "Consulting/Business Services", "Education", "Elementary School",
	"Energy/Utility", "Engineering/Construction", "Farming/Agriculture", "Food/Beverages",
	"Government Organization", "Health/Beauty", "Health/Medical/Pharmaceuticals", "Industrials",
	"Insurance Company", "Internet/Software", "Legal/Law", "Media/News/Publishing",
	"Mining/Materials", "Non-Governmental Organization (NGO)", "Non-Profit Organization",
	"Organization", "Political Organization", "Political Party", "Preschool",
	"Retail and Consumer Merchandise", "Small Business", "Telecommunication",
	"Transport/Freight", "Travel/Leisure",
}

// AllEntityScopes returns the entity scopes, "Not Known" first. The slice is fresh on
// every call.
func AllEntityScopes() EntityScopes {
	return EntityScopes{Scopes: append([]string(nil), entityScopes...)}
}

// IsEntityScope reports whether s is one of the entity scopes.
func IsEntityScope(s string) bool { return contains(entityScopes, s) }
