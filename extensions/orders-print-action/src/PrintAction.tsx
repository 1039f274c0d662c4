// The selection's print action runs the order page's module: it offers the pick list when several orders are selected.
export { default } from "../../order-print-action/src/PrintAction";
