// Package reference holds the static tables of the fake financial-account API v3.1:
// loan limits by state, entity types, card (IR), ACH (R) and wire (WR) return codes,
// error codes with their HTTP statuses, transaction statuses, OAuth and subscription
// scopes, node types, and the deterministic address verification the fake answers
// POST /v3.1/address-verification with.
//
// The package depends on nothing else in the module and may be imported by any test.
// Every table is shared read-only: functions return fresh copies, so a caller may change
// what it gets back without changing what the fake (or the next caller) sees.
//
// # Address verification rules
//
// [VerifyAddress] is deterministic. Every field is trimmed, runs of spaces are collapsed
// and letters are upper-cased. In address_street, commas become spaces, periods are
// removed and "#4" is read as "# 4"; these cosmetic changes never change the outcome.
// The street is then read as: primary number (the first word, when it starts with a
// digit), street words, and an optional unit (a designator followed by the unit number).
// Corrections, which make the answer "deliverable" rather than "usps_deliverable":
//
//	street suffix (the last street word, or the one before a trailing directional;
//	never a street's only word, so "123 BROADWAY" stays):
//	  STREET STRET STRT STR -> ST      AVENUE AVENU AVEN AVN AV -> AVE
//	  ROAD -> RD                       BOULEVARD BOULV BOUL -> BLVD
//	  DRIVE DRIV DRV -> DR             LANE -> LN        COURT CRT -> CT
//	  PLACE -> PL                      CIRCLE CIRC -> CIR
//	  HIGHWAY HWAY -> HWY              PARKWAY PKY -> PKWY
//	  TERRACE TERR -> TER              SQUARE SQR -> SQ
//	  TRAIL -> TRL    PLAZA -> PLZ     ALLEY -> ALY
//	directional, spelled out as the first of three or more street words, or as the last
//	of three or more after a suffix ("NORTH MAIN STREET WEST" -> "N MAIN ST W"; the
//	name in "WEST STREET" stays):
//	  NORTH -> N, SOUTH -> S, EAST -> E, WEST -> W, NORTHEAST -> NE, ... SOUTHWEST -> SW
//	unit designator (recognised after at least one street word):
//	  APARTMENT -> APT, SUITE -> STE, ROOM -> RM, FLOOR -> FL; APT STE UNIT RM FL # kept;
//	  a designator with no unit number after it is dropped
//	post office box (a street starting so):
//	  P O BOX, POST OFFICE BOX -> PO BOX   ("P.O. BOX" is only cosmetic: PO BOX)
//
// The first row that matches decides the answer. partial_valid is true exactly when
// another analysis flag is true.
//
//	street                                   deliverability                 flags                                  normalized address_street
//	---------------------------------------  -----------------------------  -------------------------------------  -----------------------------
//	does not start with a digit ("Main St",  deliverable                    primary_number_missing, partial_valid  corrected street (unit kept)
//	  "", "PO Box" without a box number)
//	PO box with a number ("PO Box 12")       deliverable if corrected,      none                                   PO BOX <n>
//	                                         else usps_deliverable
//	primary number not of the form           deliverable                    primary_number_invalid, partial_valid  corrected street (unit kept)
//	  [1-9][0-9]*[A-Z]? ("0 Main St",
//	  "012 Main St", "12B3 Main St")
//	all-digit number ending in 00 (a         deliverable_missing_unit       secondary_missing, partial_valid       corrected street, no unit
//	  multi-unit building), no unit
//	  ("100 Market St", "100 Market St Apt")
//	all-digit number ending in 00, unit      deliverable_incorrect_unit     secondary_invalid, partial_valid       corrected street and unit
//	  number starting with 9
//	  ("2500 Mission St Apt 901")
//	any other number, unit given             deliverable_unneccessary_unit  secondary_invalid, partial_valid       corrected street, unit dropped
//	  ("123 Main St Apt 5", "123A Elm St #2")
//	a correction was made                    deliverable                    none                                   corrected street and unit
//	  ("123 Main Street",
//	  "2500 Mission Street Suite 200")
//	otherwise ("123 Main St",                usps_deliverable               none                                   street and unit with only the
//	  "2500 Mission St Ste 200")                                                                                   cosmetic changes
//
// address_city, address_subdivision, address_postal_code and address_country_code are
// only trimmed, collapsed and upper-cased; they never change the deliverability, and the
// country is not consulted. [Address.Validate] reports the first empty field as a
// [*MissingFieldError] ("address_street is required"), so that the handler can answer 400.
package reference
