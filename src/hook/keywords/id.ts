import { phrases, type KeywordSet } from "./types.js";

export const id: KeywordSet = {
  lang: "id",
  name: "Indonesian",
  match: "words",
  patterns: phrases(`
    cara kerja | bagaimana cara | bagaimana proses | bagaimana alur | di mana | dimana | file mana | berkas mana | fungsi mana
    kelas mana | metode mana | modul mana | siapa yang memanggil | yang memanggil | dipanggil | memanggil | alur | alur data
    aliran data | siklus hidup | titik masuk | apa yang terjadi | dampak | berdampak | bergantung pada | ketergantungan
    arsitektur | struktur | didefinisikan | diimplementasikan | implementasi | hubungan antara
  `),
};
