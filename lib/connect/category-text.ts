import { messagesFor } from "@/lib/i18n";
import type { Category } from "@/lib/records";

/**
 * Each category in words a patient understands, in English, for the dashboard. The patient pages translate the same
 * catalog entries (`categories.*`) into the patient's language.
 */
export const CATEGORY_TEXT: Record<Category, { label: string; detail: string }> = messagesFor("en").categories;
