import { describe, expect, it } from "vitest";
import { translatorFor } from "@/lib/i18n";
import { scopeForCategories } from "@/lib/sources";
import { patientDetails, scopeSentences } from "./authorize-page";
import { ehrPatients } from "./patients";

describe("the consent page's list of what is asked", () => {
  it("names exactly the categories a v2 request narrows a type to, then the context those records name", () => {
    expect(scopeSentences(scopeForCategories(["medications", "labs"], "v2"))).toEqual([
      "Read these parts of your record: medications, lab results, lab reports",
      "And what those records name: visits, the names of your care team, the names of the places you received care, lab samples",
      "Know which patient record you chose",
      "Keep reading it after you leave, until you or the application end the access",
    ]);
    expect(scopeSentences(scopeForCategories(["vitals"], "v2"))[0]).toBe("Read these parts of your record: vital signs");
  });

  it("in Spanish too", () => {
    expect(scopeSentences(scopeForCategories(["medications", "labs"], "v2"), translatorFor("es"), "es").slice(0, 2)).toEqual([
      "Leer estas partes de su expediente: medicamentos, resultados de laboratorio, informes de laboratorio",
      "Y lo que esos registros mencionan: consultas, los nombres de su equipo de atención, los nombres de los lugares donde recibió atención, muestras de laboratorio",
    ]);
  });

  it("names a v1 request's whole types, and a category it has no words for by its code", () => {
    expect(scopeSentences("launch/patient patient/Observation.read patient/Condition.read")[0]).toBe("Read these parts of your record: lab results and vital signs, conditions and diagnoses");
    expect(scopeSentences("patient/Observation.rs?category=survey")[0]).toBe("Read these parts of your record: lab results and vital signs of the kind survey");
    expect(scopeSentences("launch/patient patient/*.read")[0]).toBe("Read your whole health record here");
  });
});

describe("the patient picker", () => {
  it("tells a health system's patients apart by birth date, sex and town, never by an internal id", () => {
    for (const provider of ["riverbend-health", "lakeshore-health", "willowbrook-childrens"]) {
      const patients = ehrPatients(provider);
      const details = patients.map((patient) => patientDetails(patient, "en", translatorFor("en")));
      expect(new Set(patients.map((patient) => patient.birthDate)).size).toBe(patients.length);
      expect(new Set(patients.map((patient) => patient.displayName)).size).toBe(patients.length);
      for (const [index, detail] of details.entries()) {
        expect(detail).not.toContain(patients[index]!.fhirPatientId);
        expect(detail).not.toMatch(/record|patient-/i);
      }
    }
    const riverbend = ehrPatients("riverbend-health").map((patient) => patientDetails(patient, "en", translatorFor("en")));
    expect(riverbend).toEqual(["Born June 14, 1978 · Female · Dayton, OH", "Born October 27, 1974 · Female · Kettering, OH"]);
    expect(patientDetails(ehrPatients("riverbend-health")[0]!, "es", translatorFor("es"))).toBe("Nació el 14 de junio de 1978 · Mujer · Dayton, OH");
  });
});
