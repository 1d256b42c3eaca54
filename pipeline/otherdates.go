package pipeline

import (
	"slices"
	"strings"
	"unicode"
)

// eventDateLabels name a date that is not the invoice's issue date: when it
// is due, when the goods left or arrived, when the service, the stay, the
// sale or the event took place, when a bank booked a payment. They compete
// with the invoice date's own labels in fieldLabelSet, longest match first,
// so "Invoice date" beats "date" and "Due date" beats both.
var eventDateLabels = []string{"due", "due date", "due on", "payment due", "pay by", "payable by", "fällig", "fällig am", "fälligkeit",
	"zahlbar bis", "échéance", "date d'échéance", "date limite", "vencimiento", "fecha de vencimiento", "scadenza",
	"data di scadenza", "delivery", "delivery date", "delivered", "ship", "ship date", "shipped", "shipping date",
	"dispatch date", "order date", "ordered", "valid until", "valid thru", "expiry", "expiry date", "expires", "exp",
	"period", "billing period", "service period", "lieferdatum", "leistungsdatum", "支払期限", "お支払期限",
	"order received", "dispatched", "despatched", "dispatch", "date of supply", "supply date",
	"date of delivery", "leistungszeitraum", "bestelldatum", "date de livraison", "date de commande",
	"fecha de entrega", "fecha de pedido", "original invoice", "注文日", "納品日", "出荷日",
	// The date of the supply, the service, a stay, a payment or a linked
	// document is not the date the invoice was issued.
	"fecha de operación", "fecha operación", "data sprzedaży", "data dostawy", "termin płatności", "vencimento",
	"data de vencimento", "data da saída", "data de saída", "data de entrega", "challan date", "dc date",
	"delivery note date", "date of service", "service date", "dates of service",
	"departure", "departure date", "check-out", "abreise", "départ",
	"salida", "partenza", "anzahlung", "deposit", "value date", "valuta", "wertstellung", "fecha valor",
	"data valuta", "date de valeur", "data operazione", "data di consegna", "date of birth", "geburtsdatum",
	"delivery by", "deliver by", "delivered by", "fahrt am", "reisedatum", "reisetag", "travel date", "date of travel",
	"date de voyage", "fecha de viaje", "data del viaggio",
	"datum splatnosti", "splatnost", "datum zdanitelného plnění", "duzp", "fizetési határidő", "teljesítés dátuma",
	"teljesítés", "hạn thanh toán",
	// A deadline in prose: "bis zum 19. Oktober 2026 fällig".
	"bis zum", "bis spätestens", "spätestens am", "no later than", "not later than", "au plus tard le", "avant le",
	"a más tardar el", "entro il", "entro e non oltre il", "uiterlijk op", "senast", "do dnia",
	// An order, a shipment or a due date in more languages.
	"sipariş tarihi", "sevk tarihi", "sevkiyat tarihi", "teslim tarihi", "irsaliye tarihi", "vade tarihi",
	"son ödeme tarihi", "versanddatum", "bestellt am", "geliefert am", "auftragsdatum", "date of order",
	"order placed", "data ordine", "data dell'ordine", "data zamówienia", "besteldatum", "leverdatum",
	"vervaldatum", "orderdatum", "beställningsdatum", "leveransdatum", "ordredato", "leveringsdato",
	"forfaldsdato", "förfallodatum", "дата заказа", "дата доставки", "дата отгрузки", "срок оплаты",
	"оплатить до", "ημερομηνία παραγγελίας", "ημερομηνία αποστολής", "ημερομηνία παράδοσης", "λήξη",
	"วันที่สั่งซื้อ", "วันครบกำหนด", "วันที่ครบกำหนด", "วันที่ครบกำหนดชำระ", "تاريخ الطلب", "تاريخ التوريد",
	"تاريخ الاستحقاق", "تاريخ التسليم", "受注日", "ご注文日", "発送日", "订单日期", "发货日期",
	// The treatment, visit or service a bill is for.
	"date of treatment", "treatment date", "treatment dates", "date of visit", "visit date", "behandlungsdatum",
	"behandlungszeitraum", "behandlung am", "behandlungstag", "data prestazione", "data della prestazione",
	"data visita", "fecha de atención", "fecha de servicio", "fecha de la consulta", "data do atendimento",
	"data da consulta", "date des soins", "date de soins", "date de la consultation", "診療日", "施術日",
	"受診日", "진료일",
	// The sale an auction or a supply records.
	"sale date", "date of sale", "auction date", "fecha de venta", "verkaufsdatum", "data vendita",
	"date de vente", "дата продажи", "дата поставки",
	// The instalments of a payment plan.
	"instalment", "installment", "instalment due", "installment due", "plazo", "cuota", "rata", "ratenzahlung",
	"teilzahlung", "mensualité", "taksit", "взнос", "งวดที่",
	// The same events said in a phrase before the date.
	"sale of", "sale on", "sold on", "auction held on", "auction of", "auction on", "vente du",
	"vente aux enchères du", "versteigerung am", "versteigerung vom", "auktion am", "auktion vom", "subasta del",
	"asta del", "dos", "d.o.s.", "service on", "services on", "services rendered on", "seen on", "treated on",
	"treatment on", "visit on", "behandlung vom", "agreement dated", "agreement of",
	"contract dated", "contract of", "lease dated", "vertrag vom", "contrat du", "contrato de fecha",
	"contratto del", "shipped on", "delivered on", "geliefert am", "livré le", "entregado el",
	// Due dates under Nordic, Central European and Turkish labels.
	"forfallsdato", "forfall", "forfallsdag", "betalingsfrist", "betales innen", "förfallodag", "förfaller",
	"sista betalningsdag", "betala senast", "eräpäivä", "eräpvm", "maksettava viimeistään", "forfald",
	"forfaldsdag", "sidste rettidige betalingsdag", "sidste betalingsdag", "betales senest", "fälligkeitsdatum",
	"fällig bis", "zahlungsziel", "zahlbar am", "lhůta splatnosti", "datum splatnosti faktury", "dátum splatnosti",
	"termin zapłaty", "data płatności", "vade", "son ödeme", "срок платежа", "оплатить не позднее", "payment due date",
	"date due", "due by", "pay before", "data scadenza", "scadenza pagamento", "fecha límite de pago", "vervaldag",
	"uiterste betaaldatum", "lejárat", "fizetési határidő dátuma", "termen de plată", "data scadentă", "rok plačila",
	"rok plaćanja", "datum dospijeća", "dospijeće", "maksetähtaeg", "tähtaeg", "apmokėti iki", "apmaksāt līdz",
	// The Czech and Slovak tax point (DUZP) is the date of the supply, not of the document.
	"datum uskutečnění zdanitelného plnění", "datum uskutečnění plnění", "datum zdan. plnění", "datum plnění",
	"dátum dodania", "dátum zdaniteľného plnenia", "dátum dodania tovaru",
	// A bank's value date.
	"valutadato", "valutadatum", "valør", "valørdato", "arvopäivä", "valuta datum", "data de valor",
	// A shipment, dispatch, departure or delivery.
	"shipment date", "date of shipment", "shipped date", "date shipped", "date of dispatch", "despatch date",
	"date of departure", "sailing date", "on board date", "loading date", "date of loading", "flight date",
	"date of flight", "data spedizione", "data di spedizione", "data consegna", "fecha de envío", "fecha de embarque",
	"fecha de salida", "date d'expédition", "date d'envoi", "date de départ", "versandtag", "versendet am",
	"lieferung am", "liefertermin", "abfahrt", "abflug", "toimituspäivä", "toimituspvm", "lähetyspäivä",
	"afsendelsesdato", "leveringsdag", "leveranstid", "datum dodání", "datum odeslání", "data wysyłki",
	"дата отправки", "дата отправления", "дата вылета",
	// The event, the period or the work a bill is for.
	"event date", "date of event", "date of the event", "function date", "wedding date", "performance date",
	"veranstaltungsdatum", "veranstaltung am", "datum der veranstaltung", "date de l'événement",
	"date de l'évènement", "fecha del evento", "data dell'evento", "data evento", "evenementdatum",
	"дата мероприятия", "etkinlik tarihi", "claim period", "period ending", "period end", "period ended",
	"statement period", "abrechnungszeitraum", "abrechnungsperiode", "période de facturation",
	"periodo de facturación", "periodo di fatturazione", "okres rozliczeniowy", "laskutuskausi",
	"faktureringsperiode", "zúčtovací období", "расчетный период", "расчётный период", "fatura dönemi",
	"work date", "date of work", "date of works", "date worked", "job date", "date of job", "arbeitsdatum",
	"ausführungsdatum", "ausführungszeitraum", "einsatzdatum", "einsatztag", "montagedatum",
	"date d'intervention", "date des travaux", "fecha del servicio", "fecha de trabajo", "data intervento",
	"data lavori", "työpäivä", "arbetsdatum", "datum provedení", "data wykonania usługi", "data wykonania",
	"дата выполнения работ", "дата оказания услуг", "hizmet tarihi",
	// A stay's last day, and a visit, a consultation or an installation the
	// bill is for. (A stay's first day and the next appointment are
	// neverIssueDateLabels, below.)
	"check-out date", "check out", "date de départ", "data di partenza", "data de saída", "abreisedatum", "vertrek",
	"vertrekdatum", "avreise", "avresa", "lähtöpäivä", "data wyjazdu", "wyjazd", "odjezd", "выезд", "дата выезда",
	"виїзд", "çıkış tarihi", "αναχώρηση", "离店日", "离店日期", "離店日期", "退房日期", "チェックアウト", "체크아웃", "퇴실일",
	"วันออก", "ngày đi", "تاريخ المغادرة", "dep", "dep date",
	"first visit", "date of first visit", "last visit", "visit", "installation", "installation date",
	"date of installation", "installed", "installed on", "installationsdatum", "montage am", "date d'installation",
	"date de pose", "fecha de instalación", "data di installazione", "data de instalação", "consultation date",
	"date of consultation", "appointment date", "date of appointment", "termin am", "behandeldatum",
	"datum behandeling", "fecha de la cita", "data da visita", "診察日", "来院日", "初診日", "就診日期", "就诊日期",
	"看診日期", "진료일자", "방문일", "วันที่รับบริการ", "ngày khám", "muayene tarihi",
	// A shipment or delivery in Chinese and Korean.
	"出貨日期", "出货日期", "出貨日", "出货日", "發貨日期", "交貨日期", "交货日期", "送貨日期", "送货日期", "到貨日期",
	"到货日期", "配送日期", "出庫日期", "出库日期", "출고일", "출고일자", "배송일", "배송일자", "납품일", "납품일자",
	// An Icelandic due date; a first consultation; the day work was completed.
	"eindagi", "gjalddagi", "initial consultation", "initial visit", "first consultation", "erstbehandlung",
	"erstkonsultation", "primera consulta", "primera visita", "première consultation", "prima visita",
	"primeira consulta", "work completed", "work completed on", "completed on", "completion date",
	"date of completion", "fertigstellung", "fertiggestellt am", "date d'achèvement", "fecha de finalización",
	"data de execução", "data di completamento",
	// Bulgaria's tax event (the supply), Ukraine's payment deadline.
	"дата на данъчно събитие", "дата на данъчното събитие", "дата на доставка", "сплатити до", "термін оплати",
	"строк оплати", "оплата до",
	// An order the invoice answers, named in a phrase before its date.
	"your order of", "your order dated", "order of", "order dated", "ihre bestellung vom", "bestellung vom",
	"ihr auftrag vom", "auftrag vom", "su pedido del", "pedido del", "pedido de fecha", "su orden del",
	"votre commande du", "commande du", "vostro ordine del", "ordine del", "uw bestelling van", "bestelling van",
	"zamówienie z dnia", "zamówienia z dnia", "objednávka ze dne", "sua encomenda de", "encomenda de", "заказ от",
	"замовлення від", "siparişiniz", "ご注文日", "注文日時",
	// A due date in Korean, Japanese and Chinese.
	"납부기한", "납부 기한", "납기일", "납부마감일", "납부일", "결제기한", "지불기한", "입금기한", "支払期日", "お支払期日",
	"支払期限日", "お支払い期限", "支払い期限", "お振込期限", "振込期限", "入金期限", "支払予定日", "缴费期限", "繳費期限",
	"缴款期限", "繳款期限", "付款期限", "付款截止日", "付款截止日期", "缴费截止日期", "繳費截止日", "到期日", "到期日期",
	"截止日期", "最后缴费日", "最後繳費日", "应付日期",
	// A delivery note or dispatch guide, dated in a phrase or after its number.
	"lieferschein vom", "lieferschein", "lieferung vom", "bon de livraison du", "bon de livraison", "livraison du",
	"albarán del", "albarán", "albaran", "guía de despacho", "guia de despacho", "guía de remisión",
	"guia de remision", "guia de remessa", "remito", "remito del", "delivery note", "delivery note dated",
	"delivery note of", "ddt del", "ddt", "documento di trasporto", "pakbon", "leveringsbon", "følgeseddel",
	"följesedel", "lähete", "wz", "dodací list", "irsaliye", "накладная", "накладна", "送货单", "出货单", "納品書",
	"거래명세서 일자",
	// A delivery, supply, turnover, service or tax-event date, and a due
	// date, in the languages and scripts whose issue-date labels reflect
	// knows too (a record copying one of them is flagged against the issue
	// date, or by this label where none is labelled).
	"piegādes datums", "pakalpojuma sniegšanas datums", "apmaksas termiņš", "pristatymo data", "tarnekuupäev",
	"ပို့ဆောင်သည့်ရက်", "ပို့ဆောင်သည့်နေ့", "ပေးချေရမည့်ရက်", "डिलीवरी तिथि", "डिलीवरी की तिथि", "आपूर्ति की तिथि",
	"आपूर्ति तिथि", "देय तिथि", "भुक्तानी मिति", "डेलिभरी मिति", "تاریخ تحویل", "تاریخ ارسال", "تاریخ سررسید",
	"ngày giao hàng", "ngày giao", "hạn thanh toán", "tanggal pengiriman", "tgl kirim", "tanggal jatuh tempo",
	"jatuh tempo", "tarikh penghantaran", "tarikh akhir", "tarikh tamat", "szállítás dátuma", "szállítási dátum",
	"data livrării", "data livrarii", "data scadenței", "datum isporuke", "datum prometa", "datum prometa dobara",
	"datum dobave", "datum opravljene storitve", "datum valute", "valuta plaćanja", "дата на доставка",
	"дата на данъчно събитие", "дата на данъчното събитие", "датум на промет", "датум на испорака", "датум промета",
	"валута на плаќање", "валута плаћања", "дата податкового зобов'язання", "дата совершения оборота",
	"дата оборота", "дата постачання", "дата відвантаження", "дата надання послуг", "teslimat tarihi",
	"วันที่ส่งของ", "วันที่จัดส่ง", "วันส่งของ", "交货日期", "交貨日期", "送货日期", "服务日期", "배송일", "납품일",
	"공급일", "dienstleistungsdatum", "tax event date", "date of taxable supply", "turnover date", "წოდების თარიღი",
	"მიწოდების თარიღი", "մատակարարման ամսաթիվ", "ማስረከቢያ ቀን"}

// neverIssueDateLabels name a day no document is issued on: a stay's first
// day (a folio is issued when the guest leaves) and the next appointment a
// clinic prints under its bill. Unlike the other dates' labels, one such
// printing names the date even when item lines repeat it (a folio's first
// night), so long as no other printing stands alone or under the field's own
// label (neverIssueNamed).
var neverIssueDateLabels = []string{
	// A stay's first day.
	"arrival", "arrival date", "date of arrival", "arr", "arr date", "check-in", "check in", "check-in date",
	"check in date", "anreise", "anreisedatum", "ankunft", "ankunftsdatum", "arrivée", "date d'arrivée", "llegada",
	"fecha de llegada", "fecha de entrada", "fecha de ingreso", "arrivo", "data di arrivo", "data arrivo",
	"data de entrada", "data de chegada", "aankomst", "aankomstdatum", "ankomst", "ankomstdato", "ankomstdatum",
	"saapumispäivä", "data przyjazdu", "przyjazd", "příjezd", "заезд", "дата заезда", "заїзд", "дата заїзду",
	"giriş tarihi", "varış tarihi", "άφιξη", "入住日", "入住日期", "入住时间", "入住時間", "到店日期", "チェックイン",
	"チェックイン日", "到着日", "체크인", "입실일", "วันเข้าพัก", "วันที่เข้าพัก", "ngày đến", "tanggal check-in",
	"tanggal kedatangan", "تاريخ الوصول",
	// The next appointment, a day after the bill.
	"next appointment", "next appt", "next visit", "next recall", "recall date", "follow-up", "follow up",
	"follow-up date", "nächster termin", "nächster besuch", "folgetermin", "prochain rendez-vous", "prochain rdv",
	"próxima cita", "próxima consulta", "próxima visita", "prossimo appuntamento", "prossima visita",
	"volgende afspraak", "nästa besök", "neste time", "następna wizyta", "następny termin", "příští návštěva",
	"следующий визит", "следующий приём", "следующий прием", "наступний візит", "bir sonraki randevu",
	"下次覆診", "下次复诊", "下次覆诊", "下次回診", "覆診日期", "复诊日期", "下次預約", "下次预约", "次回予約", "次回ご予約",
	"次回来院", "次回来院日", "다음 예약", "다음 진료", "다음 방문", "นัดครั้งต่อไป", "นัดครั้งถัดไป", "ngày tái khám",
	"tái khám", "lần khám tới", "الموعد القادم", "התור הבא",
}

// otherDateLabels are every other date's labels, competing with the
// invoice date's own.
var otherDateLabels = append(slices.Clip(eventDateLabels), neverIssueDateLabels...)

// neverIssueDateSet is neverIssueDateLabels in LabelKey form.
var neverIssueDateSet = func() map[string]bool {
	m := map[string]bool{}
	for _, l := range neverIssueDateLabels {
		m[LabelKey(l)] = true
	}
	return m
}()

// bareDateLabels are own labels that say only "date": a word glued before
// one on its line ("Inspection date:", "Survey date") makes it another
// date's label the lists do not know.
var bareDateLabels = map[string]bool{"date": true, "datum": true, "fecha": true, "data": true, "tarih": true,
	"дата": true, "dato": true, "päivämäärä": true, "pvm": true}

// issueQualifiers are the words before a bare date label that still name
// the document's own date ("Sales date", "Trans. date", "Print date").
var issueQualifiers = map[string]bool{"invoice": true, "inv": true, "bill": true, "billing": true, "receipt": true,
	"rcpt": true, "issue": true, "issued": true, "issuing": true, "tax": true, "document": true, "doc": true,
	"statement": true, "transaction": true, "trans": true, "trx": true, "txn": true, "sales": true, "sale": true,
	"print": true, "printed": true, "posting": true, "creation": true, "created": true, "current": true,
	"today's": true, "todays": true, "business": true, "bus": true, "check": true, "chk": true, "order": true,
	"purchase": true, "payment": true, "paid": true, "entry": true, "voucher": true, "slip": true, "credit": true,
	"cn": true, "memo": true, "the": true, "and": true, "&": true, "time": true, "rechnungs": true, "beleg": true,
	"facture": true, "factura": true, "fattura": true, "faktura": true, "fatura": true, "счёта": true, "счета": true}

// qualifiedDateLabel is "Inspection date" when own label h is a bare date
// word that a word glued before it on its line qualifies, or "".
func (d *doc) qualifiedDateLabel(h labelHit) string {
	if !bareDateLabels[h.key] {
		return ""
	}
	ls := d.lineStarts[d.lineOf(h.start)]
	p := h.start
	if p-1 < ls || d.rs[p-1] != ' ' {
		return ""
	}
	e := p - 1
	k := e
	for k > ls && (isLetter(d.rs[k-1]) || d.rs[k-1] == '\'') {
		k--
	}
	if k == e || k > ls && !unicode.IsSpace(d.rs[k-1]) || issueQualifiers[strings.ToLower(string(d.rs[k:e]))] {
		return ""
	}
	return string(d.rs[k:e]) + " " + strings.TrimSpace(h.text)
}

// issueDateElsewhere reports a date other than iso that may be the
// document's own: under a plain own label or under none. When every other
// date is named for something else (due, delivery), the qualified date is
// the issue date's after all.
func (d *doc) issueDateElsewhere(own Role, iso string) bool {
	for _, m := range d.dates {
		if m.ident || readsAs(m.ISO, iso) {
			continue
		}
		h, ok := d.labelBefore(m.Start)
		if !ok {
			if _, above := d.labelAbove(Span{Start: m.Start, End: m.End}); !above {
				return true
			}
			continue
		}
		if h.role == own && d.qualifiedDateLabel(h) == "" {
			return true
		}
	}
	return false
}

// otherEventDate reports date m under a qualified bare label h ("Inspection
// date") beside another date that may be the document's own.
func (d *doc) otherEventDate(own Role, h labelHit, m DateMatch) bool {
	return d.qualifiedDateLabel(h) != "" && len(m.ISO) > 0 && d.issueDateElsewhere(own, m.ISO[0])
}

// neverIssueNamed is the label of a day no document is issued on (a stay's
// first day, the next appointment) that names a printing of the date at
// spans, directly or as its column's heading, when every other printing
// shares its line with more numbers (a folio's or a plan's item lines) and
// none carries the field's own label: a date printed alone, after a place
// or under another label may be the issue date. Empty otherwise.
func (d *doc) neverIssueNamed(f Field, spans []Span) labelHit {
	var named labelHit
	if f.Kind != KindDate {
		return named
	}
	own := fieldLabelOwner(f.Name)
	for _, sp := range spans {
		h, ok := d.labelBefore(sp.Start)
		if !ok {
			h, ok = d.labelAbove(sp)
		} else if !d.namesDirectly(h, sp) {
			ok = false
		}
		switch {
		case ok && h.role == own:
			return labelHit{}
		case ok && h.role == builtinLabelOwner && neverIssueDateSet[h.key]:
			if named.text == "" {
				named = h
			}
		case !d.moreNumbersOnLine(sp):
			return labelHit{}
		}
	}
	return named
}

// moreNumbersOnLine reports a digit on sp's line outside sp: an item line's
// amount, not a date printed alone.
func (d *doc) moreNumbersOnLine(sp Span) bool {
	ls, le := d.lineBounds(d.lineOf(sp.Start))
	for _, r := range d.rs[ls:sp.Start] {
		if isDigit(r) {
			return true
		}
	}
	for _, r := range d.rs[min(sp.End, le):le] {
		if isDigit(r) {
			return true
		}
	}
	return false
}
