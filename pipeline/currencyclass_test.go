package pipeline

import "testing"

// A bare "$" on a document from a peso country is that country's peso, not
// USD: the issuer's tax identifier (an Argentine CUIT, a Chilean R.U.T., a
// Colombian NIT) decides, as the script decides a "¥".
func TestPesoDollarSignByIssuerCountry(t *testing.T) {
	c := func(code string) map[string]any { return map[string]any{"currency": code} }
	const ar = "AUTOPISTAS DEL SOL S.A.\nComprobante 0009-00481122\nImporte $ 2.350,00\nCUIT 30-12345678-9"
	const cl = "COMERCIAL ANDES LIMITADA\nR.U.T.: 96.555.444-3\nMONTO NETO $ 1.500.000\nTOTAL $ 1.785.000"
	const co = "ALMACENES ÉXITO S.A.\nNIT 890.900.608-9\nSubtotal $ 84.033\nTotal $ 100.000"
	runClassCases(t, []classCase{
		{"argentine cuit", ar, c("USD"), "currency", "points to ARS, not USD"},
		{"chilean rut", cl, c("USD"), "currency", "points to CLP, not USD"},
		{"colombian nit", co, c("USD"), "currency", "points to COP, not USD"},
		{"argentine peso right", ar, c("ARS"), "", ""},
		{"chilean peso right", cl, c("CLP"), "", ""},
		{"colombian peso right", co, c("COP"), "", ""},
		// A document that states USD is USD whatever its issuer's country.
		{"stated usd", "AUTOPISTAS DEL SOL S.A.\nCUIT 30-12345678-9\nImporte USD 2.350,00", c("USD"), "", ""},
	})
}
