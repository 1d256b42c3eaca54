package pipeline

import (
	"fmt"
	"strings"
	"unicode"
)

// notTheNumberLabels name identifiers that are never a document's own number,
// whatever else the document labels: a party's tax or registration number,
// a phone or postcode, a table, room, till or odometer reading, a document
// type or verification code. A value they name directly is flagged as the
// invoice number even on a receipt whose own number label the schema does
// not know ("TICKET 0187", "DOC.N. 0412-0087").
var notTheNumberLabels = []string{
	// Tax and registration numbers of the parties.
	"abn", "vat", "vat no", "vat reg", "vat reg no", "vat number", "vat id", "vat registration", "vat registration no",
	"tax id", "tax reg", "tax reg no", "tax registration", "tax registration number", "gst reg", "gst reg no",
	"gst id", "gst no", "gstin", "sst no", "sst reg no", "pan", "tin", "uen", "brn", "roc no", "company reg",
	"company reg no", "company registration", "company no", "registration no", "reg. no", "co reg no", "co. reg. no",
	"ust-idnr", "ust-id", "ust id", "ust-id-nr", "steuernummer", "steuer-nr", "st.-nr", "hrb", "handelsregister", "uid",
	"siren", "siret", "rcs", "tva", "n° tva", "tva intracommunautaire", "n° tva intracommunautaire",
	"nif", "cif", "nie", "partita iva", "p.iva", "p. iva", "codice fiscale", "c.f.", "cnpj", "cpf",
	"inscrição estadual", "rfc", "nip", "regon", "krs", "kvk", "btw-nr", "btw nr", "btw-nummer", "org.nr", "org nr",
	"organisationsnummer", "momsnr", "cvr", "y-tunnus", "ičo", "dič", "inn", "ruc", "cuit", "rut", "nit",
	"ič", "r.u.t.", "r.u.t", "ע.מ.", "ח.פ.", "עוסק מורשה", "αφμ", "α.φ.μ.", "mst", "mã số thuế",
	"登録番号", "統一社会信用代码", "统一社会信用代码", "纳税人识别号", "등록번호", "사업자번호", "사업자등록번호",
	// Contact, places and people.
	"tel", "phone", "fax", "zip", "postcode", "room", "room no", "zimmer", "zimmer nr", "table", "table no", "tisch",
	"mesa", "tavolo", "cashier", "cajero", "card no", "member no", "account ends", "auth", "auth code", "approval code",
	// Other codes printed on the document.
	"tipo documento", "tipo de documento", "document type", "doc type", "atcud", "código de verificação",
	"codigo de verificacao", "código de verificación", "verification code", "odometer", "odometer in", "odometer out",
	"mileage", "kilometerstand", "km-stand", "vin", "caja", "caisse", "kasse", "cassa", "caixa", "till",
	// A reservation, a terminal or store, an e-invoice's series (template) code.
	"booking ref", "booking reference", "pnr", "terminal", "terminal id", "store no", "store #", "pump",
	"ký hiệu", "ký hiệu hóa đơn", "mẫu số",
	// References to something other than this document: either party's file
	// reference, an order, a customer's, client's, guest's, patient's or
	// member's account, a prescription, a shipment. A label naming the
	// document itself ("Invoice No.", "Fee note no", "TAX INVOICE / RECEIPT
	// No.") names its number; these never do. LabelKey drops "#": "PO #",
	// "Rx #" and "Account #" are "po", "rx" and "account". A bare "Order
	// #57" is left out: a restaurant prints its check's number so.
	"our ref", "our reference", "our ref no", "our file", "your ref", "your reference", "your ref no", "your order",
	"customer ref", "client ref", "matter", "matter no", "matter number", "matter ref", "unser zeichen",
	"unsere referenz", "ihr zeichen", "ihre referenz", "notre référence", "notre réf", "votre référence", "votre réf",
	"nuestra referencia", "su referencia", "nostro riferimento", "vostro riferimento", "ons kenmerk", "uw kenmerk",
	"onze referentie", "uw referentie",
	"po", "po no", "po number", "p.o. no", "purchase order no", "purchase order number", "order no", "order number",
	"order id", "bestellnummer", "bestell-nr", "auftragsnummer", "auftrags-nr", "pedido", "pedido nº",
	"nº de pedido", "n° de commande", "numéro de commande", "ordine n", "numero ordine", "bestelnummer", "注文番号",
	"発注番号",
	"customer no", "customer number", "customer id", "customer code", "customer", "cust no", "cust",
	"account no", "account number", "account", "acct no", "acct", "a/c no", "client no", "client number",
	"client id", "client code", "guest no", "guest number", "guest id", "guest folio", "guest folio no", "member id",
	"membership no", "membership number", "patient no", "patient number", "patient id", "kundennummer", "kunden-nr",
	"kundennr", "kunden nr", "kd-nr", "kd nr", "vertragsnummer", "vertragskonto", "n° client", "n° de client",
	"numéro client", "numéro de client", "code client", "nº de cliente", "nº cliente", "número de cliente",
	"código de cliente", "codice cliente", "cod. cliente", "numero cliente", "klantnummer", "klantnr", "kundenummer",
	"kundnummer", "numer klienta", "nr klienta", "お客様番号", "顧客番号", "会員番号", "客户编号", "고객번호",
	"debtor", "debtor no", "debtor number", "debtor code", "subscriber no", "subscriber number", "payer no",
	"sold-to no", "bill-to no", "ship-to no", "customer account", "customer account no", "loyalty no",
	"debitor", "debitorennummer", "debitoren-nr", "kundenkonto", "mitgliedsnummer", "debiteurnummer", "debiteur nr",
	"klant nr", "référence client", "réf. client", "compte client", "n° adhérent", "numéro d'abonné", "n° abonné",
	"nº de abonado", "abonado", "código cliente", "referencia cliente", "nº socio", "n. cliente", "cliente n",
	"código do cliente", "asiakasnumero", "asiakasnro", "asiakas nro", "kundnr", "kunde nr", "medlemsnummer",
	"nr odbiorcy", "kod klienta", "číslo zákazníka", "zákaznické číslo", "ügyfélszám", "vevőkód", "müşteri no",
	"müşteri numarası", "κωδ. πελάτη", "κωδικός πελάτη", "お客様コード", "顧客コード", "得意先コード", "得意先番号",
	"契約番号", "客户代码", "客户号", "会员号", "회원번호",
	// Bare party words before a number, and spellings LabelKey keeps apart
	// ("N.º" is two words, "Nº" one).
	"client", "cliente", "kunde", "klant", "asiakas", "kund", "müşteri", "member", "cust id", "account id",
	"loyalty card", "club card", "kundenkarte", "n.º cliente", "n.º de cliente", "n.º de pedido",
	"n.º contribuinte",
	// A supply point or meter on a utility bill.
	"meter no", "meter number", "meter serial", "meter id", "mprn", "mpan", "supply number", "nmi", "zählernummer",
	"zähler-nr", "zählpunkt", "zählpunktbezeichnung", "marktlokation", "n° de compteur", "numéro de compteur", "pdl",
	"point de livraison", "número de contador", "cups", "pod", "pdr",
	// Tax and enterprise numbers under national labels.
	"btw", "btw nummer", "ondernemingsnummer", "ondernemingsnr", "kbo", "kbo-nr", "bce", "n° d'entreprise",
	"numéro d'entreprise", "n° entreprise", "n° de tva", "enterprise no", "enterprise number", "business no",
	"business number", "gst/hst no", "hst no", "qst no", "ein", "federal tax id", "mwst-nr", "mwst nr", "uid-nr",
	"n° siren", "codice destinatario", "oib", "pib", "kvk-nr", "kvk nummer", "matricule fiscale", "rif", "ntn",
	"adószám", "közösségi adószám", "vergi no", "vergi numarası", "vergi kimlik no", "vkn", "tckn", "mersis no",
	"nº contribuinte", "contribuinte",
	// More national tax and company numbers: Serbia's company number,
	// Bulgaria's, Costa Rica's, Azerbaijan's, the Dominican Republic's,
	// Portugal's, Slovakia's VAT number, a Gulf tax registration; a phone's
	// IMEI and a quotation a repair or works invoice follows.
	"mb", "matični broj", "maticni broj", "еик", "булстат", "еик/булстат", "ддс №", "cédula jurídica",
	"cedula juridica", "céd. jurídica", "ced. juridica", "vöen", "voen", "rnc", "nipc", "ič dph", "trn", "imei",
	"quote no", "quote number", "quotation no", "quotation number", "angebot nr", "angebotsnummer",
	"n° de devis", "devis n°", "nº presupuesto", "presupuesto nº", "número de presupuesto",
	"cotización no", "cotización nº", "cotización n°", "cotizacion no", "no. de cotización", "número de cotización",
	"presupuesto no", "orçamento nº", "orçamento n°", "offertenummer", "preventivo n",
	// A contract, a work order and a device's serial number, in the
	// languages documents are written in.
	"agreement", "agreement ref", "contract ref", "contract reference", "vertragsnr", "vertrags-nr", "umowa",
	"umowa nr", "nr umowy", "numer umowy", "по договору", "по договору №", "contractnummer", "contractnr",
	"smlouva", "smlouva č", "číslo smlouvy", "zmluva", "číslo zmluvy", "sözleşme", "sözleşme no",
	"sözleşme numarası", "rif. contratto", "réf. contrat", "n° contrat", "ugovor", "ugovor br", "broj ugovora",
	"szerződés", "szerződésszám", "avtale", "avtalenummer", "sopimus", "sopimusnumero", "kontrakt",
	"kontraktnummer", "σύμβαση", "αρ. σύμβασης", "договір", "договір №", "رقم العقد", "số hợp đồng",
	"nomor kontrak", "สัญญาเลขที่", "合同号", "合同编号", "계약번호", "orden de trabajo", "ordem de serviço",
	"ordre de travail", "arbeitsauftrag", "werkorder", "zlecenie nr", "nr zlecenia", "seriennummer", "serien-nr",
	"n° de série", "número de serie", "nº de série", "numero di serie", "serienummer", "numer seryjny",
	"rx", "rx no", "rx number", "prescription no", "prescription number",
	"b/l", "b/l no", "bl no", "bill of lading", "bill of lading no", "bill of lading number", "bol", "bol no",
	"booking no", "booking number", "container", "container no", "awb", "hawb", "mawb", "tracking no",
	"tracking number", "konossement", "connaissement", "conocimiento de embarque", "hbl", "hbl no", "mbl", "mbl no",
	"seal no", "voyage no", "voy no", "flight no", "cmr", "cmr no", "frachtbrief", "frachtbriefnummer", "pod no",
	"delivery note no", "lieferschein nr", "lieferscheinnummer",
	// An order the document fulfils, in more languages.
	"παραγγελία", "αρ. παραγγελίας", "αριθμός παραγγελίας", "sipariş no", "sipariş numarası", "номер заказа",
	"หมายเลขคำสั่งซื้อ", "رقم الطلب",
	// A taxi's driver, crew or vehicle; a kitchen order ticket.
	"乗務員番号", "乗務員", "乗務員no", "運転者番号", "車両番号", "車番", "司机工号", "kot", "kot no", "kot number",
	"driver no", "driver id", "driver number", "vehicle no", "plate", "plate no", "licence plate", "license plate",
	// A hospital's or insurer's protocol, authorisation or referral.
	"protocol", "protocol no", "protocol number", "protocollo", "n. protocollo", "numero protocollo", "protocolo",
	"nº de protocolo", "número de protocolo", "protocolo de autorização", "protocolo de autorizacion",
	"αρ. πρωτοκόλλου", "αριθμός πρωτοκόλλου", "authorization no", "authorisation no", "authorization number",
	"prior authorization", "pre-authorization", "referral no", "impegnativa", "impegnativa n", "guia", "nº da guia",
	"senha de autorização",
	// Tax and registration numbers under national labels in their own script.
	"الرقم الضريبي", "رقم التسجيل الضريبي", "الرقم الضريبي للمورد", "رقم السجل التجاري", "السجل التجاري",
	"السجل التجاري رقم", "سجل تجاري", "سجل تجاري رقم", "س.ت", "س ت", "الرقم الضريبى", "البطاقة الضريبية",
	"رقم البطاقة الضريبية", "رقم الملف الضريبي", "ملف ضريبي", "رقم التسجيل", "کد اقتصادی", "شناسه ملی", "شماره ثبت",
	"c.r.", "c.r. no", "c.r. no.", "cr no", "cr no.", "cr number", "commercial registration", "commercial registration no",
	"commercial register", "commercial register no", "commercial reg", "commercial reg. no",
	"инн", "кпп", "инн/кпп", "огрн", "огрнип", "окпо", "бик", "р/с", "к/с", "унп", "бин", "иин",
	"เลขประจำตัวผู้เสียภาษี", "เลขประจำตัวผู้เสียภาษีอากร", "เลขที่ผู้เสียภาษี", "เลขทะเบียนนิติบุคคล",
	"c.u.i.t.", "cuit n°", "cuil", "c.u.i.l.",
	// Argentina's authorisation codes of an electronic document.
	"cae", "cae n°", "cae nº", "cae nro", "c.a.e.", "cae no", "caea",
	// Contracts, policies, members and students.
	"contract", "contract no", "contract number", "contract id", "agreement no", "agreement number", "policy",
	"policy no", "policy number", "policy #", "póliza", "nº de póliza", "número de póliza", "poliza", "no. de poliza",
	"polizza", "polizza n", "n° de police", "numéro de police", "police n°", "policennummer", "polizzennummer",
	"versicherungsnummer", "versicherungsschein", "versicherungsscheinnummer", "apólice", "nº da apólice",
	"contrato", "nº de contrato", "número de contrato", "contratto", "contratto n", "n° de contrat", "contrat",
	"vertrag", "vertrag nr", "договор", "договор №", "契約no", "student id", "student no", "student number",
	"matriculation no", "matrikelnummer", "matricola", "n° étudiant", "numéro étudiant", "学籍番号", "学号",
	"membership id", "member number", "mitglieds-nr", "mitgliedsnr", "会員no",
	// An auction's bidder and lot, a charge point, a station, a work order,
	// a booking or reservation, a registration of a lease.
	"paddle", "paddle no", "bidder", "bidder no", "bidder number", "lot", "lot no", "lot number", "charger",
	"charger id", "charge point", "charge point id", "station", "station id", "station no", "work order",
	"work order no", "work order number", "wo no", "booking", "booking id", "booking code", "reservation",
	"reservation no", "reservation number", "confirmation no", "confirmation number", "lookup code",
	"ejari", "ejari no", "ejari number", "reservierungsnummer", "reservierungs-nr", "reservierung", "buchungs-nr",
	"buchungsnummer", "予約番号", "予約no", "n° de réservation", "numéro de réservation", "nº de reserva",
	"número de reserva", "localizador", "evse", "evse id", "ladepunkt", "ladepunkt-id", "ladestation",
	"point de charge", "borne", "punto de recarga",
	// The last digits of a payment card said in words.
	"card ending", "card ending in", "ending in", "card ends in", "visa ending", "mastercard ending",
	"amex ending", "karte endet auf", "carte se terminant par", "tarjeta terminada en", "last 4", "last four",
	"last 4 digits", "last four digits", "membership",
	// The goods, the till or the property a bill is for. An assessment
	// number is left out: a rates notice is the assessment, its number the
	// document's.
	"aic", "codice aic", "cod. aic", "minsan", "ean", "gtin", "sku", "machine no", "machine id", "mid", "tid",
	"merchant id", "pos id", "pos no", "register no", "kassen-nr", "kassennummer", "device id", "serial no",
	"serial number", "s/n", "valuation no", "valuation number",
	"property ref", "property reference", "parcel no", "parcel number", "cadastral ref", "referencia catastral",
}

// referenceLabels name another document the one in hand refers to: a credit
// note's or correcting invoice's original invoice. Its number is never the
// document's own, and a date the line gives ("dated", "vom", "z dnia") is
// that document's date.
var referenceLabels = []string{
	"original invoice", "original invoice no", "original invoice #", "avser faktura", "refers to invoice",
	"against invoice", "ref invoice", "relates to invoice", "related to invoice", "relating to invoice",
	"in respect of invoice", "regarding invoice", "corrects invoice", "correction of invoice", "credit for invoice",
	"zu rechnung", "zu rechnung nr", "zur rechnung", "zur rechnung nr", "zu ihrer rechnung", "bezüglich rechnung",
	"storno zu rechnung", "korrektur zu rechnung", "do faktury", "do faktury nr", "do faktury vat", "do faktury vat nr",
	"sur facture", "sur la facture", "facture d'origine", "facture initiale", "su fattura", "fattura di riferimento",
	"fattura originale", "rif. fattura", "factura rectificada", "factura original", "factura de referencia",
	"fatura de referência", "fatura original", "betreft factuur", "originele factuur", "kreditering av faktura",
	"元の請求書", "原发票号码", "原发票",
	// A corrected invoice names the one it supersedes.
	"disregard", "please disregard", "supersedes", "supersedes invoice", "replaces invoice", "cancels invoice",
	"ersetzt rechnung", "annule et remplace", "annule la facture", "sustituye a la factura",
	// A credit note or refund names the invoice it credits.
	"credit note for invoice", "credit memo for invoice", "relates to your invoice", "relating to your invoice",
	"against your invoice", "credit for your invoice", "credits your invoice", "credits invoice",
	"storno der rechnung", "stornierung der rechnung", "storno zur rechnung", "gutschrift für rechnung",
	"reversal of invoice", "cancellation of invoice", "annulation de la facture", "anulación de la factura",
	"refund of receipt", "refund for receipt", "return of receipt", "original receipt", "original slip",
	"original sale", "original transaction", "credit for invoice no", "refund for invoice",
	"credited invoice", "invoice credited", "gutschrift zur rechnung", "gutschrift zu rechnung", "sur facture n°",
	"sur facture no", "sur la facture n°", "avoir sur facture", "nota de crédito de la factura",
	"abono de la factura", "rectifica a la factura", "nota di credito su fattura", "storno della fattura",
	"creditnota voor factuur", "kreditnota til faktura", "hyvityslasku laskulle", "korekta faktury",
	"πιστωτικό για το τιμολόγιο", "к счёту", "к счету", "по счёту", "по счету",
}

var notTheNumberSet = func() map[string]bool {
	m := map[string]bool{}
	for _, ls := range [][]string{notTheNumberLabels, otherNumberLabels, referenceLabels} {
		for _, l := range ls {
			m[LabelKey(l)] = true
		}
	}
	return m
}()

// otherDateSet is the built-in other-date labels (a due, delivery, service,
// arrival date) in LabelKey form.
var otherDateSet = func() map[string]bool {
	m := map[string]bool{}
	for _, l := range otherFieldLabels[KindDate] {
		m[LabelKey(l)] = true
	}
	return m
}()

// paymentNumberWords start the labels of a number a payment or till gives
// ("Receipt #", "Bill No", "Bon-Nr."): on a document that also labels its
// invoice number, the invoice number is the field's value, not the receipt's.
var paymentNumberWords = map[string]bool{"receipt": true, "rcpt": true, "bill": true, "check": true, "bon": true,
	"beleg": true, "ticket": true, "recibo": true, "reçu": true, "ricevuta": true, "kassenbeleg": true, "kassenbon": true,
	"kvittering": true, "kvitto": true, "kuitti": true, "paragon": true, "чек": true, "קבלה": true}

// looseNumberWords start own labels that name a number without saying of
// what ("Ref", "Document No", a hotel's "Folio"): the document's number when
// nothing names one more surely, someone else's file or a guest's account
// when a receipt or invoice number is printed too. A till's "Trans No" is
// its transaction counter: the receipt's number only when nothing else is.
var looseNumberWords = map[string]bool{"ref": true, "reference": true, "document": true, "doc": true, "folio": true, "trans": true}

// invoiceTitleWords end a title that names an invoice, the document a
// receipt label joined to it numbers ("TAX INVOICE / RECEIPT No.").
var invoiceTitleWords = map[string]bool{"invoice": true, "rechnung": true, "factura": true, "facture": true,
	"fattura": true, "faktura": true, "fatura": true, "factuur": true}

// How surely one of the field's own labels names the document's number.
const (
	rankLoose    = iota + 1 // Ref, Document No, Folio
	rankPayment             // Receipt #, Bill No, Bon-Nr.
	rankDocument            // Invoice No., Rechnungsnummer, Fee note no, TAX INVOICE / RECEIPT No.
)

// ownRank ranks own label h. A receipt or bill label joined to an invoice
// title on its line ("TAX INVOICE / RECEIPT No.") names the one document
// the title names.
func (d *doc) ownRank(h labelHit) int {
	first, _, _ := strings.Cut(h.key, " ")
	rank := rankDocument
	switch {
	case looseNumberWords[first]:
		rank = rankLoose
	case paymentNumberWords[first]:
		rank = rankPayment
	default:
		return rank
	}
	ls := d.lineStarts[d.lineOf(h.start)]
	p := h.start
	for p > ls && (unicode.IsSpace(d.rs[p-1]) || strings.ContainsRune("/&+|-–,", d.rs[p-1])) {
		p--
	}
	if toks := LabelTokens(string(d.rs[ls:p])); p < h.start && len(toks) > 0 && invoiceTitleWords[toks[len(toks)-1]] {
		return rankDocument
	}
	return rank
}

// outranked is the value a more surely own label names when every own label
// of val is a looser one ("Folio 30871" beside "Invoice No: LH-0912",
// "Receipt #1100" beside "Invoice #AC-7F21"): the looser label, the other
// value and its label's rank.
func (d *doc) outranked(f Field, spans []Span, val string) (labelHit, string, int, bool) {
	own := fieldLabelOwner(f.Name)
	var loose labelHit
	best := 0
	for _, sp := range spans {
		h, ok := d.labelBefore(sp.Start)
		if !ok || h.role != own {
			continue
		}
		if r := d.ownRank(h); r > best {
			best, loose = r, h
		}
	}
	if best == 0 || best == rankDocument {
		return labelHit{}, "", 0, false
	}
	var tok string
	top := best
	for _, h := range d.fieldHits {
		if h.role != own {
			continue
		}
		r := d.ownRank(h)
		if r <= top {
			continue
		}
		if _, t, ok := d.otherNumberAfter(h, val); ok {
			tok, top = t, r
		}
	}
	return loose, tok, top, tok != ""
}

// penalizeOutranked flags a value only a looser label names. It says the
// other value is the invoice number only when an invoice label names it;
// a receipt's number is named as what it is.
func (c *FieldCheck) penalizeOutranked(f Field, val string, loose labelHit, tok string, rank int) {
	label := strings.Join(strings.Fields(loose.text), " ")
	if rank == rankDocument {
		c.penalize(factorWrongLabel, fmt.Sprintf("%s is labelled %q; the document's %s is %s", val, label,
			f.Words(), tok))
		return
	}
	c.penalize(factorWrongLabel, fmt.Sprintf("%s is labelled %q; the document's own receipt or bill number is %s", val, label, tok))
}

// numberSignDropper removes the number signs namesDirectly lets stand
// between a label and its value; built once, it is read-only.
var numberSignDropper = strings.NewReplacer("n.º", "", "n.°", "", "nº", "", "n°", "", "no.", "", "nr.", "", "no ", "",
	"nr ", "")

// namesDirectly reports whether label h names the value at sp: the value
// follows it on its line with nothing but separators or a number sign
// ("NIP: 676-…", "Siret 444 …", "Mesa 7", "Vencimento: 2026-03-22"), or
// in the next cell of a row pasted from a spreadsheet ("BTW-nr;BE0456…",
// "\"VAT\",\"BE0456…\"").
func (d *doc) namesDirectly(h labelHit, sp Span) bool {
	if h.end > sp.Start || sp.Start-h.end > 12 {
		return false
	}
	gap := strings.ToLower(d.str(h.end, sp.Start))
	if strings.IndexByte(gap, 'n') >= 0 { // every sign it drops starts with an n
		gap = numberSignDropper.Replace(gap)
	}
	if o := strings.IndexByte(gap, '('); o >= 0 {
		// A gloss in another language: "Ký hiệu (Serial): 1C26TML".
		if c := strings.IndexByte(gap[o:], ')'); c > 0 && !strings.ContainsFunc(gap[o:o+c], unicode.IsDigit) {
			gap = gap[:o] + gap[o+c+1:]
		}
	}
	return strings.IndexFunc(gap, func(r rune) bool {
		return !unicode.IsSpace(r) && !strings.ContainsRune(":：#.-–№º°();|,\"", r) || r == '\n'
	}) < 0
}

// saysOf reports whether label h names the identifier at sp directly or in
// a sentence: "your confirmation number is 7734219".
func (d *doc) saysOf(h labelHit, sp Span) bool {
	if d.namesDirectly(h, sp) {
		return true
	}
	if h.end > sp.Start || sp.Start-h.end > 8 {
		return false
	}
	gap := string(d.rs[h.end:sp.Start])
	w := strings.Fields(gap)
	return len(w) == 1 && copulaWords[strings.ToLower(w[0])] && !strings.Contains(gap, "\n")
}

// copulaWords stand between a label and its value in a sentence ("your
// confirmation number is 7734219", "Ihre Buchungsnummer ist 88213").
var copulaWords = map[string]bool{"is": true, "was": true, "ist": true, "est": true, "es": true, "é": true, "è": true,
	"er": true, "är": true, "on": true, "jest": true}

// otherNamed is the label that names every occurrence of a value as
// something the field never is: a registration number, a table or odometer
// for an identifier; a due, service or arrival date for a date. Empty when
// any occurrence is free of such a label.
//
// An identifier needs only one such occurrence when no occurrence follows a
// word of the field's own labels: a bill that asks the payer to quote the
// account number prints it again in a sentence, and it is still the
// account's.
func (d *doc) otherNamed(f Field, spans []Span) labelHit {
	var named labelHit
	own := fieldLabelOwner(f.Name)
	for _, sp := range spans {
		h, ok := d.labelBefore(sp.Start)
		if ok && f.Kind == KindDate && h.role == own {
			// "Delivery Note DN-8812 dated 12 Nov 2026": the date is the
			// document the line names before its dating word.
			if o, dated := d.datedForOther(h); dated && h.key != "date" && (otherDateSet[o.key] || notTheNumberSet[o.key]) &&
				d.firstDateAfter(h, sp) {
				if named.text == "" {
					named = o
				}
				continue
			}
		}
		if a, above := d.labelAbove(sp); !ok && above {
			// A column's heading, or a label alone on the line above.
			if a.role == own {
				return labelHit{}
			}
			if a.role == builtinLabelOwner && (f.Kind == KindIdentifier && notTheNumberSet[a.key] || f.Kind == KindDate && otherDateSet[a.key]) {
				if named.text == "" {
					named = a
				}
				continue
			}
		}
		switch {
		case ok && f.Kind == KindDate && h.role == builtinLabelOwner && (otherDateSet[h.key] || referenceSet[h.key]) &&
			!d.namesDirectly(h, sp) && d.firstDateAfter(h, sp):
			// "Sale of 08 October 2026", "Instalment 2: £200.00 on
			// 15/11/2026", "invoice INV-0877 of 02/03/2026": the first date
			// after another date's label on its line dates that event.
			if named.text == "" {
				named = h
			}
			continue
		case !ok || h.role != builtinLabelOwner || !d.namesDirectly(h, sp) && (f.Kind != KindIdentifier || !d.saysOf(h, sp)):
		case f.Kind == KindIdentifier && notTheNumberSet[h.key], f.Kind == KindDate && otherDateSet[h.key]:
			if named.text == "" {
				named = h
			}
			continue
		}
		if f.Kind != KindIdentifier || d.ownLabelled(f, sp) {
			return labelHit{}
		}
	}
	return named
}

// firstDateAfter reports that the date at sp is the first date printed
// after label h on h's line.
func (d *doc) firstDateAfter(h labelHit, sp Span) bool {
	for _, m := range d.dates {
		if m.Start >= h.end && m.Start < sp.Start {
			return false
		}
		if m.Start >= sp.Start {
			break
		}
	}
	return true
}

// cardDigits reports a value printed only after the masked digits of a
// payment card ("****4471", "•••• 8812", "**** **** **** 3021") and the mask
// before its first occurrence.
func (d *doc) cardDigits(spans []Span) (string, bool) {
	var first string
	for _, sp := range spans {
		p, masks := sp.Start, 0
		for p > 0 && (isCardMask(d.rs[p-1]) || d.rs[p-1] == ' ' && p > 1 && isCardMask(d.rs[p-2])) {
			if d.rs[p-1] != ' ' {
				masks++
			}
			p--
		}
		if masks < 3 {
			return "", false
		}
		if first == "" {
			first = string(d.rs[p:sp.Start])
		}
	}
	return first, first != ""
}

func isCardMask(r rune) bool {
	return r == '*' || r == '•' || r == '●' || r == '∙' || r == '·' || r == 'X' || r == 'x'
}

// penalizeOtherNamed flags a value only another label names, when the
// document labels no value with the field's own label to compare it with.
func (c *FieldCheck) penalizeOtherNamed(f Field, val string, h labelHit) {
	name := f.Words()
	label := strings.Join(strings.Fields(h.text), " ")
	if f.Kind == KindDate {
		c.penalize(factorWrongLabel, fmt.Sprintf("%s is labelled %q, another date than the %s", val, label, name))
		return
	}
	c.penalize(factorWrongLabel, fmt.Sprintf("%s is labelled %q, an identifier that is never the %s", val, label, name))
}

// penalizeLooseOther flags a value no own label names when the document
// labels another number only loosely ("Ref", "Folio"): it names that label
// and number without asserting either is the field's value, for the check
// cannot tell.
func (c *FieldCheck) penalizeLooseOther(f Field, val string, other, by labelHit, tok string) {
	name := f.Words()
	byLabel := strings.Join(strings.Fields(by.text), " ")
	if other.text == "" {
		c.penalize(factorWrongLabel, fmt.Sprintf("%s is printed with no label naming it the %s; the document labels %q %s: check which number is its own",
			val, name, byLabel, tok))
		return
	}
	c.penalize(factorWrongLabel, fmt.Sprintf("%s is labelled %q, not as the %s; the document labels %q %s: check which number is its own",
		val, strings.Join(strings.Fields(other.text), " "), name, byLabel, tok))
}

// numberSigns are the words a label puts before its value ("FACTURA
// SIMPLIFICADA Nº T1-004519", "NF-e Nr. 4471"): the value is the token after.
var numberSigns = map[string]bool{"nº": true, "n°": true, "no": true, "no.": true, "nr": true, "nr.": true,
	"núm": true, "núm.": true, "num": true, "num.": true, "№": true, "n.": true, "n": true}

// maxNumberSign is the most runes a number sign has ("núm.").
const maxNumberSign = 4

// skipNumberSign moves p past a number sign and the separators after it.
func skipNumberSign(rs []rune, p int) int {
	q := p
	for q < len(rs) && !unicode.IsSpace(rs[q]) && rs[q] != ':' && rs[q] != '：' {
		if q-p == maxNumberSign {
			return p // lowering keeps a word's runes: a longer one is no sign
		}
		q++
	}
	if q == p || q >= len(rs) {
		return p
	}
	// Lowered on the stack: a word too long for buf is no number sign.
	var buf [16]byte
	if w, ok := lowerWord(buf[:0], rs[p:q]); !ok || !numberSigns[string(w)] {
		return p
	}
	for q < len(rs) && (rs[q] == ' ' || rs[q] == '\t' || rs[q] == ':' || rs[q] == '：') {
		q++
	}
	return q
}

// listedUnder reports an identifier that is one row of a column of several
// numbers of the same shape under a header with the field's own label
// ("Invoice  Date  Amount" over HL-30112, HL-30188, ...): a statement or
// remittance lists documents, and none of them is its own number. It
// returns the header label and the number of rows.
func (d *doc) listedUnder(f Field, spans []Span) (labelHit, int, bool) {
	var head labelHit
	rows := 0
	for _, sp := range spans {
		line := d.lineOf(sp.Start)
		col := sp.Start - d.lineStarts[line]
		shape := idShape(string(d.rs[sp.Start:sp.End]))
		top, n := line, 1
		for l := line - 1; l >= 0 && d.sameShapeAt(l, col, shape); l-- {
			top, n = l, n+1
		}
		for l := line + 1; l < len(d.lineStarts) && d.sameShapeAt(l, col, shape); l++ {
			n++
		}
		if n < 2 || top == 0 {
			return labelHit{}, 0, false
		}
		h, ok := d.headerLabel(top-1, col, f)
		if !ok {
			return labelHit{}, 0, false
		}
		head, rows = h, n
	}
	return head, rows, head.text != ""
}

// idShape is an identifier with its digits masked: HL-30112 and HL-30299
// share the shape HL-99999.
func idShape(s string) string {
	return strings.Map(func(r rune) rune {
		if isDigit(r) {
			return '9'
		}
		return r
	}, s)
}

// sameShapeAt reports whether line l holds, starting at column col, a token
// of the given shape.
func (d *doc) sameShapeAt(l, col int, shape string) bool {
	ls := d.lineStarts[l]
	le := len(d.rs)
	if l+1 < len(d.lineStarts) {
		le = d.lineStarts[l+1] - 1
	}
	p := ls + col
	if p >= le || (col > 0 && !unicode.IsSpace(d.rs[p-1])) {
		return false
	}
	q := p
	for q < le && !unicode.IsSpace(d.rs[q]) {
		q++
	}
	return q > p && idShape(string(d.rs[p:q])) == shape
}

// headerLabel is the column heading over column col of line l when it is
// one of the field's own labels ("Invoice", "Invoice No."): the cell runs
// from the word nearest col to the next gap of two spaces.
func (d *doc) headerLabel(l, col int, f Field) (labelHit, bool) {
	ls := d.lineStarts[l]
	le := len(d.rs)
	if l+1 < len(d.lineStarts) {
		le = d.lineStarts[l+1] - 1
	}
	for p := max(ls, ls+col-2); p <= ls+col+2 && p < le; p++ {
		if !unicode.IsLetter(d.rs[p]) || (p > ls && !unicode.IsSpace(d.rs[p-1])) {
			continue
		}
		q := p
		for q < le && !(unicode.IsSpace(d.rs[q]) && q+1 < le && unicode.IsSpace(d.rs[q+1])) {
			q++
		}
		key := LabelKey(string(d.rs[p:q]))
		for _, lb := range f.Labels {
			if LabelKey(lb) == key {
				return labelHit{start: p, end: q, text: string(d.rs[p:q]), key: key, role: fieldLabelOwner(f.Name)}, true
			}
		}
		return labelHit{}, false
	}
	return labelHit{}, false
}

// narrowRune maps a full-width form (Ｎｏ．０１２３, ￥１，２００, the
// ideographic space) to its ASCII or common form, one rune for one, so
// offsets into the text stay those of the text as given. Japanese, Chinese
// and Korean documents print numbers, codes and dates in either width.
// Arabic-Indic and Persian digits (Egypt, Saudi Arabia, Iran: ١٬١٤٠٫٥٠,
// ۱۲۵۰) read as 0-9 too, with the Arabic decimal and thousands separators
// (٫ ٬) as '.' and ',' and the Arabic percent sign as '%': amounts, dates
// and numbers are then read as in any other script, and every span still
// points at the digits as printed. Every other decimal digit Unicode knows
// (Devanagari ०-९, Bengali ০-৯, Thai ๐-๙, Lao, Khmer, Burmese ၀-၉, Tibetan,
// the Indian scripts, Mongolian …) reads as its value too, one for one.
func narrowRune(r rune) rune {
	switch {
	case r >= 0xFF01 && r <= 0xFF5E:
		return r - 0xFEE0
	case r >= 0x0660 && r <= 0x066C:
		return arabicForms[r-0x0660]
	case r >= 0x06F0 && r <= 0x06F9:
		return '0' + r - 0x06F0
	case r == 0x3000:
		return ' '
	case r == 0xFFE5:
		return '¥'
	case r == 0xFFE6:
		return '₩'
	case r == 0xFFE1:
		return '£'
	case r == 0xFFE0:
		return '¢'
	case r >= 0x07C0:
		return nativeDigit(r)
	}
	return r
}

// nativeDigit is r's value as an ASCII digit when r is a decimal digit of
// another script, else r. Unicode keeps every script's digits as runs of ten
// from zero, so each range of unicode.Nd starts at a zero. CJK, Hangul and
// the symbols between hold no digit and leave without a look-up.
func nativeDigit(r rune) rune {
	if r > 0x1C59 && r < 0xA620 || r > 0xABF9 && r < 0xFF10 || !unicode.Is(unicode.Nd, r) {
		return r
	}
	for _, rg := range digitRanges {
		if r >= rg[0] && r <= rg[1] {
			return '0' + (r-rg[0])%10
		}
	}
	return r
}

// digitRanges are unicode.Nd's ranges, its 16-bit and 32-bit tables in one
// list, each range's first rune a zero.
var digitRanges = func() (out [][2]rune) {
	for _, rg := range unicode.Nd.R16 {
		out = append(out, [2]rune{rune(rg.Lo), rune(rg.Hi)})
	}
	for _, rg := range unicode.Nd.R32 {
		out = append(out, [2]rune{rune(rg.Lo), rune(rg.Hi)})
	}
	return out
}()

// arabicForms are U+0660-U+066C: the Arabic-Indic digits, the Arabic
// percent sign and the decimal and thousands separators.
var arabicForms = [...]rune{'0', '1', '2', '3', '4', '5', '6', '7', '8', '9', '%', '.', ','}

// narrowRunes is text with every full-width form narrowed (narrowRune).
func narrowRunes(text string) []rune {
	if asciiText(text) != "" {
		// Nothing to narrow, and a byte is a rune: one pass, not three.
		rs := make([]rune, len(text))
		for i := 0; i < len(text); i++ {
			rs[i] = rune(text[i])
		}
		return rs
	}
	rs := []rune(text)
	for i, r := range rs {
		rs[i] = narrowRune(r)
	}
	return rs
}
