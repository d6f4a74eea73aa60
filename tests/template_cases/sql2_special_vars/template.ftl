-- locale ${.locale}, format ${.output_format}
SELECT '${.data_model.table}' AS t, ${.vars["limit"]?c} AS l
