/** Every demo response is marked as fictional: a header on every response and a field in every JSON body. */
export const DATA_NOTICE = "Fictional synthetic data for demonstration only. Not for clinical use.";
export const DATA_NOTICE_HEADER = "X-Data-Notice";
