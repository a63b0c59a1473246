import { phrases, type KeywordSet } from "./types.js";

export const de: KeywordSet = {
  lang: "de",
  name: "German",
  match: "words",
  patterns: phrases(`
    wie funktioniert | wie funktionieren | wie wird | wie werden | wie läuft | wo wird | wo werden | wo ist | wo sind | wo steht
    woher kommt | in welcher datei | welche datei | welche funktion | welche klasse | welche methode | welches modul
    wer ruft | was ruft | aufgerufen | wer verwendet | wer benutzt | verwendet von | ablauf | datenfluss | kontrollfluss | lebenszyklus
    einstiegspunkt | was passiert | was geschieht | auswirkung* | betroffen | hängt von | hängen von | abhängigkeiten zwischen
    architektur | struktur der | struktur des | struktur von | definiert | implementiert | implementierung | zusammenhang zwischen
    beziehung zwischen
  `),
};
