#include "services/web/statement_texts.h"

namespace gorank::web {
namespace {

constexpr StatementTexts kZh = {
    "证书签名核验",
    "签名有效：本声明由本会的联合会密钥签发，未被改动。",
    "签名无效：声明已被改动，不可信。",
    "签名无效：声明不是用本会的联合会密钥签发的。",
    "二维码中的证书声明",
    "项目",
    "内容",
    "证书编号",
    "段位",
    "棋种",
    "围棋",
    "五子棋",
    "颁发日期",
    "颁发单位代码",
    "密钥编号",
    "审计日志条目",
    "未注明（导入的历史证书没有颁发记录）",
    "审计日志包含证明",
    "颁发记录（第 %1 条）包含在已签名的检查点中：日志大小 %2，根哈希 %3，"
    "签名时间 %4。",
    "包含证明未通过：",
    "撤销状态",
    "已撤销，撤销日期 %1。",
    "未撤销（截至审计日志大小 %1 的已签名撤销清单）。",
    "当前状态",
    "输入持证人姓名，核验姓名并查看证书当前状态。",
    "持证人姓名",
    "核验",
    "姓名与声明一致。",
    "姓名与声明不一致。",
    "有效",
    "公示中",
    "已撤销",
    "无效",
    "二维码内容不是证书声明：",
};

constexpr StatementTexts kEn = {
    "Certificate statement check",
    "Signature valid: this statement was signed with the federation's key "
    "and has not been altered.",
    "Signature invalid: the statement was altered and cannot be trusted.",
    "Signature invalid: the statement was not signed with this federation's "
    "key.",
    "The certificate statement in the QR code",
    "Field",
    "Value",
    "Certificate number",
    "Grade",
    "Discipline",
    "Go",
    "Gomoku",
    "Date of issue",
    "Issuing agency code",
    "Key id",
    "Audit log entry",
    "not named (imported historic certificates have no issuance entry)",
    "Inclusion in the audit log",
    "The issuance (entry %1) is included in the signed checkpoint: log size "
    "%2, root hash %3, signed %4.",
    "Inclusion proof failed: ",
    "Revocation",
    "Revoked on %1.",
    "Not revoked (signed revocation list as of audit log size %1).",
    "Current state",
    "Enter the holder's name to check it and see the certificate's current "
    "state.",
    "Holder's name",
    "Check",
    "The name matches the statement.",
    "The name does not match the statement.",
    "valid",
    "under public notice",
    "revoked",
    "not valid",
    "The code is not a certificate statement: ",
};

}  // namespace

const StatementTexts& StatementTextsFor(Lang lang) {
  return lang == Lang::kEn ? kEn : kZh;
}

}  // namespace gorank::web
