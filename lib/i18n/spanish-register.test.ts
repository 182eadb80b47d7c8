import { describe, expect, it } from "vitest";
import es from "./messages/es.json" with { type: "json" };

// The Spanish pages address the patient as usted throughout (reviewed string by string); this keeps tú from
// creeping back: its pronouns and possessives, and its second-person verb endings (puedes, podrás, estás).
const TU_WORDS = /(?<![\p{L}])(tú|tu|tus|ti|te|contigo|tuyo|tuya|tuyos|tuyas)(?![\p{L}])/iu;
const SECOND_PERSON_VERB = /(?<![\p{L}])\p{L}+(?:as|es|ás|és)(?![\p{L}])/giu;
/** Words that end like a tú verb but are not one (checked against every string of the catalog). */
const NOT_TU = new Set(["más", "atrás", "demás", "jamás", "después", "además", "antes", "mientras", "veces", "reclamaciones", "explicaciones", "mediciones", "recetas", "vacunas", "alergias", "intolerancias", "reacciones", "cirugías", "notas", "consultas", "solicitudes", "coincidencias", "afecciones", "diagnósticos", "problemas", "pruebas", "muestras", "enlaces", "claves", "conexiones", "aplicaciones", "mensajes", "sistemas", "páginas", "horas", "fechas", "partes", "categorías", "ellas", "tipos", "registros", "agentes", "días", "personas", "instrucciones", "contraseñas", "direcciones", "informes", "documentos", "medicamentos", "despachos", "análisis", "procedimientos", "signos", "vitales", "resultados", "estas", "esas", "otras", "algunas", "ningunas", "todas", "nuevas", "similares", "clínicas", "arterial", "beneficios", "es", "les", "los", "las", "mes", "tres", "seis", "interés", "pacientes", "través", "nombres", "lugares", "sesiones", "factores"]);

function strings(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (value && typeof value === "object") return Object.values(value).flatMap(strings);
  return [];
}

describe("the Spanish catalog", () => {
  const texts = strings(es).map((text) => text.replace(/\{[^{}]*\}/g, " ").replace(/<[^>]+>/g, " "));

  it("has strings to check", () => {
    expect(texts.length).toBeGreaterThan(100);
  });

  it("never uses tú's pronouns or possessives", () => {
    expect(texts.filter((text) => TU_WORDS.test(text))).toEqual([]);
  });

  it("has no second-person (tú) verb form: every word ending in -as/-es is a known noun or usted form", () => {
    const suspects = texts.flatMap((text) => [...text.matchAll(SECOND_PERSON_VERB)].map((match) => match[0].toLowerCase())).filter((word) => !NOT_TU.has(word));
    expect([...new Set(suspects)]).toEqual([]);
  });

  it("catches a tú form (the check can fail)", () => {
    expect(TU_WORDS.test("Elige tu sistema de salud")).toBe(true);
    expect([..."Puedes dejar de compartir".matchAll(SECOND_PERSON_VERB)].map((match) => match[0].toLowerCase()).filter((word) => !NOT_TU.has(word))).toEqual(["puedes"]);
  });
});
