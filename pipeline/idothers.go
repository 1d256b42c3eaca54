package pipeline

// otherNumberLabels name more identifiers a document prints beside its own
// number, in the languages documents are written in: a stay's folio, room
// or booking, a bank account, an electronic document's access key,
// signature or authorisation, a card payment's approval, a fiscal device's
// and its receipt's fiscal numbers, a dispatch or customs document, an
// order. Like notTheNumberLabels, a value one of them names directly is
// never the document's number, and a document whose own number is labelled
// too has that number named in the flag.
var otherNumberLabels = []string{
	// A stay: the room, the booking or confirmation, the guest.
	"quarto", "quarto nº", "quarto n.º", "habitación", "habitacion", "hab", "chambre", "camera", "stanza", "kamer",
	"pokój", "oda no", "δωμάτιο", "חדר", "غرفة", "ห้อง", "phòng", "kamar", "客室", "房号", "房間", "객실",
	"confirmation", "confirmation code", "reservation code", "reservation id", "booking confirmation", "reserva",
	"nº reserva", "n.º reserva", "réservation", "prenotazione", "n. prenotazione", "buchung", "rezerwacja",
	"rezervace", "rezervasyon", "rezervasyon no", "бронирование", "номер бронирования", "бронювання", "הזמנה",
	"מספר הזמנה", "رقم الحجز", "การจอง", "mã đặt phòng", "kode booking", "訂房代號", "预订号", "예약번호",
	"conf", "conf no", "conf number", "conf code", "confirmation id", "confirmation ref", "reservation confirmation",
	"itinerary", "itinerary no", "itinerary number", "trip id", "record locator", "bestätigungsnummer",
	"buchungsbestätigung", "numéro de confirmation", "n° de confirmation", "número de confirmación",
	"nº de confirmación", "código de reserva", "código de confirmación", "número de confirmação", "codice prenotazione",
	"codice di conferma", "numero di conferma", "確認番号", "予約確認番号", "확인번호", "예약 번호", "确认号",
	"номер подтверждения", "код бронирования", "rezervasyon kodu", "kod rezerwacji", "numer rezerwacji",
	"bekreftelsesnummer", "bekräftelsenummer", "vahvistusnumero", "varausnumero", "reservationsnummer",
	"bookingnummer", "boekingsnummer", "reserveringsnummer", "mã xác nhận", "mã đặt chỗ", "kode konfirmasi",
	"nomor konfirmasi", "kode pemesanan", "หมายเลขการจอง", "หมายเลขยืนยัน", "رقم التأكيد", "מספר אישור",
	// An Israeli invoice's allocation number from the tax authority.
	"מספר הקצאה", "מס' הקצאה", "הקצאה",
	// A bank account and its routing.
	"iban", "bic", "swift", "swift code", "bic/swift", "swift/bic", "sort code", "routing number", "routing no", "aba",
	"bsb", "bank account", "bank account no", "bank account number", "bankverbindung", "kontonummer", "kontonr",
	"konto", "konto nr", "numer konta", "nr konta", "nr rachunku", "numer rachunku", "rachunek bankowy", "rib", "nib",
	// A bare "conta", "cuenta", "conto", "účet" or "hesap" is left out: a
	// restaurant's bill is so called ("Conta nº 412", "Hesap No: 88").
	"conta bancária", "nº de conta bancária", "nº de cuenta", "número de cuenta", "cuenta bancaria", "clabe", "cbu",
	"conto corrente", "c/c", "rekening", "rekeningnummer", "no. rekening", "nomor rekening", "číslo účtu",
	"bankovní účet", "hesap numarası", "banka hesabı", "tilinumero", "tili", "رقم الحساب", "الآيبان", "آيبان", "מספר חשבון", "חשבון בנק", "расчётный счёт",
	"расчетный счет", "р/сч", "р/р", "рахунок iban", "เลขที่บัญชี", "số tài khoản", "銀行口座", "口座番号", "账号",
	"帳號", "계좌번호",
	// A payment reference the bank reads, not the document's number.
	"kid", "kid-nr", "kid nr", "kid-nummer", "ocr", "ocr-nummer", "ocr nummer", "ocr-nr", "bankgiro", "plusgiro",
	"viitenumero", "viite", "viitenro", "fik", "fi-kort", "betalingsid", "konstantní symbol", "specifický symbol",
	"referencia de pago", "linha digitável", "código de barras",
	// Registration and tax numbers not listed with the parties.
	"適格請求書発行事業者", "適格請求書発行事業者登録番号", "事業者登録番号", "npwp", "nitku", "tax registration number",
	"رقم تسجيل ضريبة القيمة المضافة", "统一编号", "統一編號", "統編", "賣方", "買方", "卖方", "买方", "税号", "营业执照",
	"єдрпоу", "код єдрпоу", "іпн", "пн", "ідентифікаційний код", "strn", "cr no", "c.r.", "c.r. no",
	// An electronic document's access key, signature, authorisation or
	// registration with the tax authority.
	"chave de acesso", "chave", "protocolo de autorização de uso", "autorização", "clave de acceso",
	"número de autorización", "numero de autorizacion", "autorización", "autorizacion", "cufe", "cude", "cdc",
	"código de control", "código de generación", "sello digital", "sello de recepción", "no. de serie del csd",
	"no. de serie del certificado", "serie del csd", "certificado", "ettn", "mark", "μαρκ", "μ.αρ.κ.", "irn",
	"ack no", "ack. no", "acknowledgement no", "ack number", "e-way bill", "e-way bill no", "eway bill no",
	"ewb no", "mã tra cứu", "mã cqt", "mã của cqt", "mã nhận hóa đơn", "국세청 승인번호", "발급번호", "发票代码", "發票代碼",
	"校验码", "校驗碼", "检查码", "隨機碼", "随机码", "機器編號", "机器编号", "check code", "security code",
	// A card payment's approval, retrieval reference, batch and trace.
	"approval", "approval no", "approval number", "appr code", "appr no", "auth no", "authorisation code",
	"authorization code", "rrn", "ref. no. rrn", "stan", "trace", "trace no", "trace-nr", "batch", "batch no",
	"aid", "tvr", "tsi", "arqc", "atc", "ta-nr", "vu-nr", "vu nr", "genehmigungs-nr", "genehmigungsnummer",
	"autorisierungsnummer", "autorisierungs-nr", "n° autorisation", "numéro d'autorisation", "autorisation", "aut",
	"cod. aut", "código de autorización", "no. autorización", "cod. autorizzazione", "codice autorizzazione",
	"kod autoryzacji", "код авторизації", "код авторизации", "код авт", "承認番号",
	"approved", "authorised", "authorized", "authorization", "authorisation", "auth id", "authcode", "auth. code",
	"appr", "retrieval ref", "retrieval reference", "retrieval reference number", "retrieval ref no", "aprobación",
	"código de aprobación", "cod. aprobación", "cod aprob", "nº autorización", "nro. autorización", "n° aut",
	"código autorização", "cód. autorização", "nsu", "code d'autorisation", "autorisierungscode", "numer autoryzacji",
	"číslo autorizace", "autorizační kód", "onay kodu", "onay no", "provizyon no", "provizyon kodu",
	"κωδικός έγκρισης", "αρ. έγκρισης", "код подтверждения", "授权码", "授權碼", "รหัสอนุมัติ", "mã chuẩn chi",
	"kode otorisasi", "kode approval", "رمز الموافقة", "رقم الموافقة", "رقم التفويض", "קוד אישור",
	"app code", "apprv code", "approval cd", "auth cd", "auth num", "no auto", "n° auto", "numero auto", "numéro auto",
	"autorizzazione", "cod autorizz", "cod. autorizz", "cod.autorizz", "cod.aut", "n aut", "n. aut", "nº aut", "aut. nº", "cód. aut", "código de aut",
	"autorisatiecode", "autorisatie", "godkendelseskode", "aut.kode", "aut kode", "autorisasjonskode",
	"godkännandekod", "hyväksymiskoodi", "承認no", "授权号", "授權號碼", "参考号", "检索参考号", "檢索參考號",
	"số chuẩn chi", "κωδ. έγκρισης", "prov no", "prov. no", "prov. kodu", "номер операции", "номер транзакции",
	// A fiscal device and the fiscal numbers of its receipt.
	"фн", "фн прро", "фн рро", "фн чека", "фд", "фп", "фпд", "рн ккт", "зн ккт", "зн", "зн рро", "ккт", "рро", "прро",
	"фискальный признак", "фискальный номер", "фіскальний номер", "номер фн", "смена", "смена №", "зміна",
	"зміна №", "касса", "каса", "касир", "кассир", "nr unikatowy", "numer unikatowy", "nr kasy", "kasa nr",
	"bkp", "pkp", "matricola", "rt", "matricola rt", "αρ. μηχανής", "tse", "tse-transaktion", "tse transaktion",
	"tse-transaktionsnummer", "tse-signaturzähler", "signaturzähler", "tse-seriennummer", "tse-start", "tse-ende",
	"kassen-seriennummer", "z-report", "z report", "z no", "z-nr", "z-bon", "raport dobowy", "seri no", "ecr no",
	"ecr", "pos id", "pos", "số máy", "id unic", "cod fiscal",
	// A dispatch, delivery or customs document.
	"guía de despacho", "guia de despacho", "guía", "guía de remisión", "guia de remision", "guia de remessa",
	"remito", "remisión", "albarán", "albaran", "nº albarán", "ddt", "n. ddt", "documento di trasporto", "bolla",
	"bon de livraison", "leveringsbon", "følgeseddel", "följesedel", "lähete", "wz", "dokument wz", "dodací list",
	"irsaliye", "irsaliye no", "sevk irsaliyesi", "накладная", "накладна", "ттн", "送货单", "出货单", "納品書番号",
	"delivery order", "delivery order no", "d/o no", "dua", "dam", "declaración aduanera", "pedimento",
	"customs declaration", "customs entry", "entry no", "mrn", "zollanmeldung", "déclaration en douane",
	"beyanname no", "gümrük beyannamesi", "гтд", "报关单号", "報關單號", "申告番号", "수입신고번호",
	// An order the document fulfils. A bare "order" word is left out, as in
	// notTheNumberLabels: a restaurant or a delivery platform numbers its
	// receipt so (주문번호, 订单号).
	"orden de compra", "oc", "o.c.", "ordem de compra", "nº pedido", "bon de commande", "ordine d'acquisto",
	"nr zamówienia", "č. objednávky", "tilausnumero", "ordrenr", "ordernummer", "no. pesanan", "nomor pesanan",
	"номер замовлення", "أمر شراء", "رقم أمر الشراء", "ใบสั่งซื้อ", "số đơn hàng",
	// A party's tax or personal number under more national labels and
	// spellings (R.U.C. is three words, RUC one).
	"r.u.c.", "r.u.c", "ruc nº", "ruc n°", "nº ruc", "n° ruc", "ruc/ci", "n.i.t.", "nit nº", "c.u.i.t", "rut nº",
	"rtn", "nrc", "法人番号", "会社法人等番号", "kennitala", "kt", "bin", "bin no", "cui", "c.u.i.", "cod. fiscal",
	"codul fiscal", "dni", "d.n.i.", "nif/cif", "cédula", "cedula", "c.i.", "curp", "nric", "ic no", "passport no",
	"passport number", "personnummer", "henkilötunnus", "pesel", "jmbg", "егн", "身分證字號", "身份证号", "주민등록번호",
	"マイナンバー", "個人番号", "tax number", "tax no", "tin no",
	// An insurer's claim a repair or a treatment is billed under.
	"claim no", "claim number", "claim #", "claim id", "claim ref", "claim reference", "insurance claim",
	"insurance claim no", "insurance claim number", "insurer claim no", "insurer ref", "insurer reference",
	"schadennummer", "schaden-nr", "schadennr", "schadensnummer", "n° de sinistre", "numéro de sinistre",
	"sinistre n°", "sinistre", "nº de siniestro", "número de siniestro", "siniestro", "numero sinistro",
	"n. sinistro", "sinistro", "schadenummer", "skadenummer", "skadenr", "numer szkody", "nr szkody",
	"číslo pojistné události", "hasar dosya no", "hasar no", "номер убытка", "事故番号", "사고번호", "理赔号", "理賠編號",
	// The certificate of the invoicing software a fiscal authority gave.
	"software cert", "software certificado", "software certificate", "programa certificado", "programa certificado nº",
	"certificado nº", "nº certificado", "n.º certificado", "certificado n.º", "nº de certificado", "certificate no",
	"certificação", "certificação nº", "n.º de certificação",
	// A delivery note's number.
	"lieferschein", "lieferschein-nr", "remito nº", "remito n°", "remito nro", "nº remito", "nº guía", "guía nº",
	"bon de livraison n°", "n° bon de livraison", "albarán nº", "delivery note", "dn no", "ddt n", "pakbon",
	// An e-invoice system's identifiers beside the document's own number:
	// Vietnam's series and lookup code, a national system's UUID, internal
	// and submission IDs, Hungary's NAV transaction.
	"ký hiệu mẫu số", "mã số bí mật", "mã tra cứu hóa đơn", "mã của cơ quan thuế", "uuid", "submission uuid",
	"submission id", "long id", "internal id", "document uuid", "validation id", "qr code id", "irbm uuid",
	"nav azonosító", "nav tranzakció azonosító", "nav tranzakció", "nav transaction id", "nav transaction",
	"nav id", "tranzakció azonosító", "transaction id", "szoftver azonosító", "tranzakció-azonosító",
	"tranzakcióazonosító", "nav online számla", "online számla azonosító", "beküldési azonosító",
	"n° de remito", "nº de remito", "remitos", "remito asociado", "remitos asociados", "rto nº",
	// A utility's account, customer, subscriber, installation, meter or
	// supply point: a bill that prints no number of its own still prints
	// these, and none of them is the bill's number.
	"account reference", "account ref", "account ref no", "account reference no", "customer reference",
	"customer reference number", "customer reference no", "service account", "service account no", "premise id",
	"premises id", "consumer no", "consumer number", "consumer id", "service connection no", "contract account",
	"contract account no", "id pelanggan", "no. pelanggan", "no pelanggan", "nomor pelanggan", "kode pelanggan",
	"idpel", "лицевой счёт", "лицевой счет", "номер лицевого счёта", "номер лицевого счета", "особовий рахунок",
	"номер особового рахунку", "особовий рахунок №", "ос. рахунок", "ос. рахунок №", "лицевой счёт №", "лицевой счет №", "абонентский номер", "номер абонента", "номер счётчика", "номер счетчика",
	"номер лічильника", "unidade consumidora", "nº da instalação", "n.º da instalação", "código da instalação",
	"número da instalação", "tesisat no", "tesisat numarası", "abone no", "abone numarası", "sayaç no",
	"sayaç numarası", "mã khách hàng", "mã kh", "số công tơ", "mã điểm đo", "número de suministro", "nº de suministro",
	"código de suministro", "número de medidor", "nº de medidor", "nº medidor", "medidor", "contador nº",
	"n° de compteur", "n° compteur", "compteur", "numer licznika", "kod ppe", "punkt poboru", "numer płatnika",
	"číslo odběrného místa", "číslo elektroměru", "aansluitnummer", "ean-code", "ean code", "anlagennummer",
	"abonnementsnummer", "شماره اشتراک", "شناسه اشتراک", "رقم الاشتراك", "رقم المشترك", "رقم العداد",
	// A device's serial number, an asset tag.
	"serijski broj", "seri numarası", "заводской номер", "зав. №", "серийный номер", "серійний номер", "số serial",
	"số seri", "製造番号", "シリアル番号", "序列号", "sarjanumero", "výrobní číslo", "gyári szám", "numéro de série",
	"numero de série", "device no", "device number", "gerätenummer", "geräte-nr", "equipment no", "asset no", "asset tag",
	// A quotation or work order the document follows. A bare "Quote" or
	// "Angebot" is left out: a quotation numbers itself so.
	"radni nalog", "radni nalog br", "заказ-наряд", "заказ-наряд №", "наряд-заказ", "job no", "job number", "job card",
	"job card no", "service order", "service order no", "ordine di lavoro", "bon de travail", "werkbon", "teklif no",
	"số báo giá",
	// A receipt lottery's code (Greece, Portugal, Poland, Romania, Taiwan).
	"lottery code", "lottery number", "lottery no", "receipt lottery", "κωδικός λαχειοφόρου", "λαχειοφόρος",
	"κωδικός λαχειοφόρου παιχνιδιού", "kod loterii", "loteria", "lotaria", "cod loterie", "抽獎號碼", "兌獎號碼", "兑奖号码",
	// An export's permit, licence, declaration and letter of credit.
	"export permit", "export permit no", "export licence", "export license", "export licence no", "export license no",
	"export declaration", "export declaration no", "import permit", "import permit no", "permit no", "permit number",
	"licence no", "license no", "l/c", "l/c no", "lc no", "letter of credit", "letter of credit no",
	"documentary credit", "documentary credit no", "akkreditiv", "akkreditiv-nr", "carta de crédito",
	"crédito documentario", "lettre de crédit", "crédit documentaire", "akreditif no", "ihracat izni", "số l/c",
	"信用证号", "信用状番号", "certificate of origin", "certificate of origin no", "shipping bill no", "eori", "eori no",
	"eori-nummer", "ausfuhrgenehmigung", "ausfuhranmeldung", "permiso de exportación", "licencia de exportación",
	"licença de exportação", "giấy phép xuất khẩu",
	// A vehicle's registration plate.
	"vehicle registration", "vehicle reg", "vehicle reg no", "vehicle registration no", "registration mark", "vrm",
	"vrn", "kennzeichen", "amtl. kennzeichen", "amtliches kennzeichen", "kfz-kennzeichen", "immatriculation",
	"n° d'immatriculation", "plaque", "matrícula", "placa", "targa", "госномер", "гос. номер", "гос.номер",
	"государственный номер", "номерной знак", "номерний знак", "biển số", "biển kiểm soát", "ทะเบียนรถ", "nomor polisi",
	"plat nomor", "no. polisi", "车牌号", "車牌號碼", "차량번호", "plaka", "plaka no", "rekisterinumero",
	"registreringsnummer", "tablica rejestracyjna", "nr rejestracyjny", "spz", "rendszám", "πινακίδα", "kenteken",
	"nummerplade",
	// A payment code a fine or a bill is paid by.
	"payment code", "pay code", "payment id", "código de pago", "codigo de pago", "code de paiement", "zahlungscode",
	"kod płatności", "mã thanh toán", "уин", "платёжный код", "kode bayar", "kode pembayaran", "رمز الدفع",
	"ödeme kodu", "شناسه پرداخت", "código de pagamento", "codice avviso",
}
