/** The client speaks the language the user chose for KeSi (`kesi.locale`). */

import * as vscode from "vscode";
import { asLocale, type Locale } from "./core/messages";

export function currentLocale(): Locale {
  return asLocale(vscode.workspace.getConfiguration("kesi").get("locale"));
}
