package pipeline

// The words that name a party of a document other than its issuer: the
// labels before a customer's name, the words an address opens with, the
// honorifics between them and the name, the Japanese addressee suffixes.

// customerLabels introduce the other party of a document: the buyer, the
// addressee, the guest. Matched as whole words anywhere before the name on
// its line, or as the line above it.
var customerLabels = []string{"rechnung an", "rechnungsadresse", "empfänger", "bill to", "billed to", "sold to",
	"ship to", "shipped to", "deliver to", "delivered to", "invoice to", "invoiced to", "customer", "client", "attn",
	"buyer", "consignee", "kunde", "kund", "kunden", "rechnungsempfänger", "lieferadresse", "destinataire",
	"facturé à", "livré à", "cliente", "facturar a", "請求先", "お客様", "bill-to", "guest", "gast", "prepared for",
	"购买方", "购方", "买方", "kepada", "penerima", "remit payment only to", "pay only to", "factuur aan", "klant",
	// The buyer, recipient or service taker in more languages: Polish,
	// Portuguese, Spanish/Brazilian NFS-e, Korean tax invoices, German,
	// French, Japanese; a patient on a clinic's bill.
	"nabywca", "odbiorca", "destinatário", "destinatario", "tomador", "tomador de serviços", "tomador do serviço",
	"receptor", "공급받는자", "공급받는 자", "공 급 받 는 자", "käufer", "acheteur", "買主", "購入者", "patient", "patiënt", "paciente",
	"comprador", "adquirente", "cessionario", "committente", "pelanggan", "datos del cliente",
	// Czech, Slovak, Hungarian, Arabic and Latin American Spanish buyers.
	"passenger", "passenger name", "passagier", "passager", "pasajero", "passeggero",
	"odběratel", "odberateľ", "kupující", "vevő", "vásárló", "العميل", "المشتري", "الزبون", "señor es", "señores", "sres",
	// Other parties a document names that are never its issuer: the
	// buyer's accounts-payable department signing an e-mail, the card
	// scheme on a card slip.
	"accounts payable", "purchasing department", "einkauf", "카드종류", "card type", "kartenart",
	// The buyer, payer and consignee of a Russian invoice or waybill; a
	// Hebrew and a Thai addressee; the buyer of a Vietnamese e-invoice.
	"покупатель", "плательщик", "грузополучатель", "לכבוד", "ชื่อลูกค้า", "người mua hàng", "người mua",
	// Roles that are never the issuer: the tenant or lessee of a lease (the
	// landlord issues it), the insured of a policy (the insurer does), the
	// hirer of plant, the student of a school. Not "driver": a taxi
	// driver may issue the receipt.
	"tenant", "lessee", "mieter", "locataire", "inquilino", "arrendatario", "policyholder", "policy holder",
	"versicherungsnehmer", "assuré", "assurée", "insured", "hirer", "student", "schüler", "étudiant",
	// Who collects or processes the payment for the seller (a direct-debit
	// bureau, a card processor, a payment service provider), and who pays:
	// the debtor of a Swiss QR-bill ("Zahlbar durch"), a payer named after
	// "Paid by". Neither issued the document.
	"collected by", "processed by", "powered by", "payment service provider", "eingezogen von", "eingezogen durch",
	"abgewickelt durch", "abgewickelt von", "zahlungsdienstleister", "traité par", "encaissé par", "procesado por",
	"cobrado por", "gestito da", "elaborato da", "incassato da", "zahlbar durch", "payable by", "payable par",
	"pagabile da", "pagadero por", "paid by", "bezahlt von", "bezahlt durch", "payé par", "pagado por", "pagato da",
	"payer", "payor", "zahler", "zahlungspflichtiger",
	// The insurer a medical bill names beside its patient: a heading over
	// its fields ("Insurance Information / Carrier: …") or its own label.
	"insurance information", "insurance details", "insurance info", "primary insurance", "secondary insurance",
	"insurance carrier", "insurance company", "insurer", "health plan", "krankenkasse", "kostenträger",
	"organisme complémentaire", "aseguradora",
	// The Turkish buyer: "Alıcı" and the addressee's "Sayın" (typed with or
	// without the dotless ı).
	"alıcı", "alici", "sayın", "sayin", "müşteri", "musteri",
	// The buyer or orderer of a Russian or Ukrainian invoice (Заказчик,
	// Покупець, Замовник, the payer Платник), of a Finnish (Tilaaja,
	// Ostaja, Asiakas), Swedish (Beställare, Köpare), Norwegian or Danish
	// one (Kjøper, Køber, Bestiller), their billing and delivery addresses
	// and recipients; the Greek customer, buyer and recipient.
	"заказчик", "покупець", "замовник", "платник", "вантажоодержувач", "клиент", "клієнт", "tilaaja", "ostaja",
	"asiakas", "laskutusosoite", "toimitusosoite", "vastaanottaja", "maksaja", "beställare", "köpare",
	"fakturaadress", "leveransadress", "mottagare", "kjøper", "køber", "bestiller", "fakturaadresse",
	"leveringsadresse", "mottaker", "modtager", "faktureres til", "πελάτης", "αγοραστής", "παραλήπτης",
	"ασφαλισμένος", "ασθενής",
	// The orderer, buyer or customer in more languages: German Auftraggeber,
	// Besteller and Leistungsempfänger, French donneur d'ordre, Polish
	// Zamawiający and Płatnik, Czech Objednatel, Slovak Objednávateľ,
	// Romanian Cumpărător and Beneficiar, Croatian and Serbian Kupac,
	// Slovene Kupec, Bulgarian Купувач and Получател, Baltic buyers,
	// Indonesian Pembeli, Thai ผู้ซื้อ and ลูกค้า, Hebrew לקוח, Chinese
	// customer, consignee and payer, Korean customer and buyer, Hindi
	// customer and buyer; a bill-to party.
	"auftraggeber", "besteller", "leistungsempfänger", "donneur d ordre", "zamawiający", "zamawiajacy",
	"płatnik", "objednatel", "objednávateľ", "cumpărător", "cumparator", "beneficiar", "kupac", "kupec",
	"купувач", "получател", "pirkėjas", "pircējs", "pembeli", "ผู้ซื้อ", "ลูกค้า", "לקוח", "客户", "收货人",
	"付款人", "顾客", "고객", "구매자", "ग्राहक", "क्रेता",
	// A hotel's guest in more languages; a club's member by name.
	"hóspede", "huésped", "ospite", "gäst", "gjest", "gæst", "vieras", "guest name", "member name",
	// Who gave to a charity: the donor of a donation receipt, the one a
	// receipt says the money came from.
	"donor", "donor name", "donated by", "received from", "received with thanks from", "spender", "spenderin",
	"zuwendender", "donateur", "donatrice", "donante", "doador", "doadora", "darczyńca", "lahjoittaja", "givare",
	// The parties of a case a legal bill names: the firm that bills is none
	// of them. Not "claimant": under a construction payment claim the
	// claimant is the contractor that issues it.
	"respondent", "applicant", "defendant", "plaintiff", "petitioner", "appellant",
	"in the matter of", "antragsteller", "antragsgegner", "beklagte", "beklagter", "kläger", "klägerin",
	"défendeur", "demandeur", "demandado", "demandante",
	// The importer and the party to notify on shipping papers; the
	// Argentinian buyer's "Apellido y Nombre" field.
	"notify party", "notify", "importer", "importador", "importateur", "importeur", "receiver",
	"apellido y nombre", "nombre del cliente",
	// The agency or platform a stay was booked through: it sells the
	// booking, the hotel issues the bill.
	"booked via", "booked through", "booked with", "booking via", "booking through", "reserved via",
	"reserved through", "booking source", "booking channel", "reserva via", "reserva vía", "reservado via",
	"reservado a través de", "reserva a través de", "gebucht über", "gebucht via", "buchung über", "réservé via",
	"réservation via", "prenotato tramite", "prenotazione tramite", "geboekt via", "bokad via", "booket via",
	// The site a stay was booked on: it sold the booking, not the stay.
	"reserva efetuada através de", "reserva feita através de", "reserva através de", "reservation made through",
	"reservation made via", "booking made through", "booking made via", "réservé sur", "gebucht bei",
	// The brand a hotel or shop is run under: its owner licenses the name,
	// the operating company issues the bill.
	"under licence from", "under license from", "franchisor", "sous licence de", "unter lizenz von",
	"bajo licencia de", "su licenza di", "a member of", "franchised by", "franchise of", "trademark of",
	"trademarks of", "part of the", "member of", "eine marke der", "eine marke von", "una marca de", "une marque de",
	"a brand of", "brand of", "subsidiary of", "franchise agreement with", "licence agreement with",
	"license agreement with",
	// Who holds the card a slip was paid with.
	"cardholder", "card holder", "card member", "karteninhaber", "titulaire de la carte", "titular de la tarjeta",
	"titolare carta", "titular do cartão",
	// Who saw, treated or referred a clinic's patient.
	"seen by", "treated by", "referred by", "prescribed by", "verordnet von", "überwiesen von", "prescrit par",
	"prescrito por", "prescritto da",
	// Who certifies a construction payment for the employer.
	"certified by", "certified for payment by", "bescheinigt durch", "certifié par",
	// Buyers of Chinese, Taiwanese and Hong Kong invoices in traditional
	// script (買受人 with its 統一編號), the old VAT invoice's 购货单位, an
	// invoice's 抬头 (the title it is made out to).
	"買方", "購買方", "購方", "買受人", "購貨單位", "购货单位", "客戶", "收貨人", "買家", "买家", "發票抬頭", "发票抬头",
	"抬頭", "抬头",
	// A bank the document names: where the seller banks, or the bank that
	// issued the card paid with. Neither issued the document.
	"bank", "bank name", "banco", "banque", "bankverbindung", "kreditinstitut", "card issuer", "issuing bank", "issuer bank", "banco emisor", "entidad emisora", "kartenherausgeber",
	"banque émettrice", "acquirer", "acquiring bank",
	// The bank a payment line names after the account it holds ("to our
	// account with …", "Konto bei der …", "compte ouvert auprès de …",
	// "domiciliación bancaria en …"), a cheque is payable at, a Japanese
	// or Chinese transfer account is held at (振込先, 开户行), a Korean
	// automatic transfer draws on (자동이체).
	"account with", "account at", "konto bei", "compte auprès de", "ouvert auprès de", "compte chez",
	"domiciliation", "domiciliation bancaire", "domiciliación bancaria", "cuenta en", "cuenta abierta en",
	"conto presso", "conto corrente presso", "coordinate bancarie", "appoggio bancario", "banca d appoggio",
	"rekening bij", "payable at", "drawn on", "direct debit from", "debit from", "debited from", "abgebucht von",
	"prélevé sur", "cargado en", "addebitato su", "振込先", "お振込先", "振込口座", "お振込口座", "開戶行", "開戶銀行",
	"开户行", "开户银行", "자동이체", "입금계좌", "입금은행",
	// The buyer in more languages: Spanish Adquiriente, the "Doit" of an
	// old-style French or West African invoice ("Doit : M. X" names who
	// owes), Icelandic and Faroese, a co-op's member (Socio, Sócio,
	// Asociado), Armenian, Persian and Urdu, Uzbek, Georgian, Azerbaijani,
	// Kazakh, Mongolian, Serbian and Macedonian orderers, Sinhala, Khmer,
	// Lao and Burmese.
	"adquiriente", "doit", "keypari", "kaupandi", "socio", "sócio", "asociado", "գնորդ", "պատվիրատու",
	"خریدار", "خريدار", "مشتری", "مشتري", "خریدنے والا", "xaridor", "buyurtmachi", "харидор", "მყიდველი",
	"დამკვეთი", "sifarişçi", "sifarisci", "сатып алушы", "тапсырыс беруші", "худалдан авагч", "наручилац",
	"naručilac", "нарачател", "ගැනුම්කරු", "អ្នកទិញ", "ຜູ້ຊື້", "ဝယ်သူ",
	// Third parties that act for the issuer without being it: the managing
	// agent of an owners' association, the e-invoicing provider a footer
	// names.
	"managed by", "managing agent", "proveedor tecnológico", "proveedor tecnologico",
	"electronic invoice generated by", "e-invoice generated by", "facturación electrónica por",
	"facturacion electronica por", "factura electrónica generada por",
	// The software or certification provider a footer names: "Generated
	// by", "Erstellt mit", a Mexican CFDI's PAC (the authorised certifying
	// provider) and a Peruvian OSE, "Proveedor de servicios electrónicos".
	"generated by", "invoice generated by", "created with", "made with", "erstellt mit", "erstellt durch",
	"generiert mit", "généré par", "généré avec", "facture générée par", "generado por", "generado con",
	"gerado por", "emitido com", "generato da", "generato con", "gegenereerd met", "gegenereerd door",
	"pac", "pac certificador", "rfc del pac", "nombre del pac", "certificado por", "proveedor de certificación",
	"proveedor de certificacion", "proveedor autorizado de certificación", "proveedor de servicios electrónicos",
	"proveedor de servicios electronicos", "operador de servicios electrónicos", "software provider",
	"invoicing software", "billing software", "e-invoicing provider", "e-invoice provider",
	// Who manages a property for its owner, and in whose care a letter
	// goes ("c/o"): an agent, not the landlord or association that bills.
	"property manager", "property management by", "managing agents", "verwaltet durch", "verwaltet von",
	"géré par", "gestionado por", "administrado por", "administrador de la finca",
	"administrateur de biens", "c o", "care of",
	// The Dutch invoice and delivery address; the customer's details as
	// one word (Kundendaten, klantgegevens) and the Nordic invoice address.
	"factuuradres", "afleveradres", "leveringsadres", "kundendaten", "kundenanschrift", "rechnungsanschrift",
	"klantgegevens", "faktureringsadress", "faktureringsadresse", "asiakastiedot",
	// Invoicing software named with its maker: "Software de facturación:",
	// "generated using Zoho Invoice by …", Portugal's certified program
	// ("Processado por programa certificado n.º 1234/AT - Moloni").
	"software de facturación", "software de facturacion", "generated using", "created using", "made using",
	"programa certificado", "software certificado"}

// addressWords name the addressee only when they stand right before the name
// with nothing else before it on its line ("To: M. Thibodeaux", "Sehr geehrte
// Frau Becker", "Hey Sam"): elsewhere they are ordinary words.
var addressWords = []string{"to", "an", "dear", "hey", "hi", "hello", "sehr geehrte", "sehr geehrter",
	"liebe", "lieber", "bonjour", "estimado", "estimada", "cher", "chère", "gentile", "caro", "cara", "aan",
	"spett.le", "spettabile", "egregio", "para", "geachte", "beste",
	// A window-envelope address opens with the addressee's form of address.
	"herrn", "herr", "frau", "firma", "monsieur", "madame"}

// honorifics may stand between a label and the name it introduces.
var honorifics = map[string]bool{"mr": true, "mrs": true, "ms": true, "miss": true, "dr": true, "herr": true,
	"frau": true, "m": true, "mme": true, "mlle": true, "sr": true, "sra": true, "don": true, "doña": true}

// customerSuffixes follow the addressee's name in Japanese ("株式会社ABC 御中",
// "山田 様"): the name before them is the customer.
var customerSuffixes = []string{"御中", "様", "殿"}
