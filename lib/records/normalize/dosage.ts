import type { RecordData } from "../schemas";
import { codeable, quantity } from "./codes";
import { boolean, number, object, objects, string, strings, type Json } from "./read";
import { period } from "./times";

type Dosage = RecordData<"medications">["dosages"][number];

/** One FHIR Dosage (of a request, statement or dispense): the text as written plus the parts a reader can compute with. */
export function dosage(raw: Json): Dosage {
  const doseAndRate = objects(raw.doseAndRate)[0];
  const timing = object(raw.timing);
  const repeat = object(timing?.repeat);
  const asNeededFor = codeable(raw.asNeededCodeableConcept);
  const frequency = {
    timesPerPeriod: number(repeat?.frequency),
    period: number(repeat?.period),
    periodUnit: string(repeat?.periodUnit),
  };
  const hasFrequency = frequency.timesPerPeriod !== null || frequency.period !== null || frequency.periodUnit !== null;
  return {
    text: string(raw.text),
    asNeeded: boolean(raw.asNeededBoolean) ?? (asNeededFor ? true : null),
    route: codeable(raw.route),
    dose: quantity(doseAndRate?.doseQuantity),
    frequency: hasFrequency ? frequency : null,
    timingCode: codeable(timing?.code),
    when: strings(repeat?.when),
    bounds: period(repeat?.boundsPeriod),
    asNeededFor,
  };
}
