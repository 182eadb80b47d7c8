export { SectionLoading as default } from "@/components/dashboard/section-loading";
