import { SectionLoading } from "@/components/dashboard/section-loading";

export default SectionLoading;
