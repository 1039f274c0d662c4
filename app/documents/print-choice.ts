import { z } from "zod";

/**
 * What a batch's print job holds, one PDF in the batch's order: its labels (each international label followed
 * by its commercial invoice); its labels with each order's packing slip after its label and invoice; its
 * packing slips alone; or its pick list.
 */
export const PrintChoice = z.enum(["labels", "labels-and-slips", "slips", "pick-list"]);
export type PrintChoice = z.infer<typeof PrintChoice>;

/** The documents as the merchant reads them: "Download labels and slips". */
export const PRINT_CHOICE_NAMES: Record<PrintChoice, string> = {
  labels: "labels",
  "labels-and-slips": "labels and slips",
  slips: "packing slips",
  "pick-list": "pick list",
};

/** The same for one order's shipment: "Download label and slip". */
export const PRINT_CHOICE_NAMES_ONE: Record<PrintChoice, string> = {
  labels: "label",
  "labels-and-slips": "label and slip",
  slips: "packing slip",
  "pick-list": "pick list",
};
