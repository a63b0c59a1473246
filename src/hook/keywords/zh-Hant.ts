import { phrases, type KeywordSet } from "./types.js";

export const zhHant: KeywordSet = {
  lang: "zh-Hant",
  name: "Chinese (Traditional)",
  match: "substring",
  patterns: phrases(`
    怎麼運作 | 怎麼實現 | 怎麼實作 | 怎麼工作 | 如何運作 | 如何實作 | 如何實現 | 如何工作 | 是怎麼 | 是如何 | 原理 | 在哪裡 | 在哪
    哪個檔案 | 哪個文件 | 哪個函式 | 哪個函數 | 哪個類別 | 哪個方法 | 哪個模組 | 誰呼叫 | 呼叫了 | 呼叫鏈 | 呼叫關係 | 被呼叫
    調用 | 流程 | 資料流 | 控制流 | 生命週期 | 進入點 | 入口 | 會發生什麼 | 影響 | 依賴於 | 相依 | 架構 | 結構 | 定義在 | 在哪定義
    之間的關係
  `),
};
